import GRPCCore
import Testing

@testable import GaugeCtlKit

@Suite struct ArgumentsTests {
  let specs = GlobalOptions.flags + WidgetFlags.specs + [FlagSpec("file", short: "f")]

  @Test func flagsInEveryFormAndNegativeNumbersAsPositionals() throws {
    let parsed = try Arguments.parse(
      [
        "cpu", "--gauge", "-5", "--min=-10", "--max", "10", "-f", "w.json", "--json", "-2.5",
        "--mark", "1:a", "--mark", "2", "--", "--literal",
      ],
      accepting: specs)
    #expect(parsed.positionals == ["cpu", "-2.5", "--literal"])
    #expect(parsed.value("gauge") == "-5")
    #expect(parsed.value("min") == "-10")
    #expect(parsed.value("file") == "w.json")
    #expect(parsed.has("json"))
    #expect(parsed.values("mark") == ["1:a", "2"])
  }

  @Test(arguments: [
    (["--nope"], "unknown option --nope"),
    (["-z"], "unknown option -z"),
    (["--gauge"], "--gauge needs a value"),
    (["--json=yes"], "--json takes no value"),
    (["--min", "1", "--min", "2"], "--min is given more than once"),
  ])
  func mistakesAreUsageErrors(arguments: [String], message: String) {
    #expect(throws: CLIError.usage(message)) { try Arguments.parse(arguments, accepting: specs) }
  }

  @Test func numbersAreCheckedButNaNIsLeftToTheServer() throws {
    let parsed = try Arguments.parse(["--gauge", "abc", "--min", "nan"], accepting: specs)
    #expect(throws: CLIError.usage("--gauge: \"abc\" is not a number")) {
      try parsed.number("gauge")
    }
    #expect(try parsed.number("min")?.isNaN == true)
  }

  @Test func durations() {
    #expect(DurationText.parse("500ms") == .milliseconds(500))
    #expect(DurationText.parse("5s") == .seconds(5))
    #expect(DurationText.parse("2m") == .seconds(120))
    #expect(DurationText.parse("1.5") == .milliseconds(1500))
    #expect(DurationText.parse("0") == nil)
    #expect(DurationText.parse("soon") == nil)
    // Only plain decimals, though Double reads more.
    for text in ["0x1s", "1e3", "+5", "5.", ".5s", "inf", "1.2.3s", "s", ""] {
      let expected: Duration? =
        switch text {
        case "5.": .seconds(5)
        case ".5s": .milliseconds(500)
        default: nil
        }
      #expect(DurationText.parse(text) == expected, "\(text)")
    }
  }

  @Test func globalOptionsFromFlagsAndEnvironment() throws {
    let fromEnvironment = try GlobalOptions(
      Arguments(), environment: ["GAUGED_SERVER": "10.0.0.2:6000"])
    #expect(fromEnvironment.serverText == "10.0.0.2:6000")
    #expect(fromEnvironment.timeout == GlobalOptions.defaultTimeout)
    #expect(fromEnvironment.metadata.isEmpty)

    let flags = try Arguments.parse(
      ["--server", "[::1]:7", "--timeout", "250ms", "--token", "abc"], accepting: specs)
    let given = try GlobalOptions(flags, environment: ["GAUGED_SERVER": "10.0.0.2:6000"])
    #expect(given.serverText == "[::1]:7")
    #expect(given.timeout == .milliseconds(250) && given.timeoutGiven)
    #expect(given.metadata["authorization"] == .text("Bearer abc"))
    #expect(!given.gzip && given.clientConfiguration.compression == .identity)

    let gzipped = try GlobalOptions(
      Arguments.parse(["--gzip"], accepting: specs), environment: [:])
    #expect(gzipped.gzip && gzipped.clientConfiguration.compression == .gzip)

    #expect(throws: CLIError.self) {
      try GlobalOptions(Arguments(), environment: ["GAUGED_SERVER": "example.com:80"])
    }
  }

  @Test func commandLineMistakesAreUsageErrorsBeforeAnyConnection() throws {
    #expect(throws: CLIError.usage("no command given")) { try GaugeCtl.run([], environment: [:]) }
    #expect(throws: CLIError.usage("unknown command \"frob\"")) {
      try GaugeCtl.run(["frob"], environment: [:])
    }
    #expect(throws: CLIError.usage("get needs ID")) {
      try GaugeCtl.run(["--server", "127.0.0.1:1", "get"], environment: [:])
    }
    #expect(throws: CLIError.usage("set: \"fast\" is not a number")) {
      try GaugeCtl.run(["--server", "127.0.0.1:1", "set", "cpu", "fast"], environment: [:])
    }
    #expect(throws: CLIError.usage("--style applies to --gauge only")) {
      try GaugeCtl.run(["put", "x", "--value", "1", "--style", "linear"], environment: [:])
    }
    #expect(throws: CLIError.usage("--gradient: colour 2 of 3 is empty (\"red,,blue\")")) {
      try GaugeCtl.run(
        ["put", "g", "--gauge", "1", "--min", "0", "--max", "2", "--gradient", "red,,blue"],
        environment: [:])
    }
    // A header value: an empty token, spaces or controls only earn a stream reset.
    for token in ["", "abc ", "a\r\nb", "tok\u{1}"] {
      #expect(throws: CLIError.self) {
        try GlobalOptions(
          Arguments.parse(["--token", token], accepting: specs), environment: [:])
      }
    }
  }
}
