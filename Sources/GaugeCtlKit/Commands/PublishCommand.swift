import GRPCClient
import GRPCCore
import GaugeDomain
import GaugeJSON
import GaugeWire
import Glibc

/// `some_metric_source | gaugectl publish`: every line is one value,
/// streamed with PublishValues as it is read.
enum PublishCommand: Command {
  static let name = "publish"
  static let summary = "stream values from standard input (ID VALUE or JSON lines)"
  static let help = """
    Usage: some_metric_source | gaugectl publish

    Reads standard input line by line and sends each value at once over one
    PublishValues stream. A line is "ID VALUE" (spaces or tabs between) or a
    JSON object {"id": "cpu", "value": 42}; blank lines and lines starting
    with # are skipped. Each value must fit its widget's bounds.

    At the end of input prints how many values were accepted and rejected.
    Exits 1 if any line was rejected, by gaugectl (unreadable) or by the
    server, naming each line number and the reason.

    Options:
      --json                 the summary as JSON, with line numbers
      --timeout DURATION     a deadline for the whole stream (none by default)
    """
  static let flags: [FlagSpec] = []

  /// An id longer than any widget's (it may be megabytes) is reported by
  /// its start and how long it was; any other is shown whole.
  private static func shortened(_ id: String) -> String {
    guard id.utf8.count > WidgetID.maxLength else { return id }
    return "\(id.prefix(32))... (\(id.utf8.count) bytes)"
  }

  private struct Rejection {
    var line: Int
    var id: String
    var code: String
    var message: String
  }

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    guard arguments.positionals.isEmpty else {
      throw .usage("publish reads standard input and takes no arguments")
    }
    // readLine says nil for a read error as for the end of the input: a
    // directory or a closed descriptor would pass for empty input.
    var input = stat()
    guard fstat(0, &input) == 0 else { throw .usage("publish: standard input is closed") }
    guard input.st_mode & S_IFMT != S_IFDIR else {
      throw .usage("publish: standard input is a directory")
    }
    let client = try WidgetClient(options)
    let stream = client.publishStream()
    /// The input line of each item sent, by stream index.
    var sentLines: [Int] = []
    var local: [Rejection] = []
    var lineNumber = 0
    while let line = readLine(strippingNewline: true) {
      lineNumber += 1
      switch PublishLine.parse(line) {
      case .skip:
        continue
      case .invalid(let id, let reason):
        local.append(
          Rejection(
            line: lineNumber, id: id.map(shortened) ?? "", code: "UNREADABLE", message: reason))
      case .refused(let id, let reason):
        local.append(
          Rejection(
            line: lineNumber, id: shortened(id), code: "INVALID_ARGUMENT", message: reason))
      case .item(let id, let value):
        guard stream.send(WidgetWire.encodeValueUpdate(id: id, value: value)) else { break }
        sentLines.append(lineNumber)
      }
      if stream.isEnded { break }
    }
    let response = stream.finish()
    let message: [UInt8]
    do {
      message = try response.singleMessage()
    } catch {
      var failure = client.error(error, doing: "publish")
      failure.lines.append("\(sentLines.count) values were sent before the stream failed")
      throw failure
    }
    let summary = try client.decode(message, WidgetWire.decodePublishSummary)
    var rejections = local
    for rejection in summary.rejections {
      let index = Int(rejection.index)
      rejections.append(
        Rejection(
          line: index < sentLines.count ? sentLines[index] : 0, id: rejection.id,
          code: GRPCStatus.Code(rawValue: rejection.code)?.canonicalName
            ?? "code \(rejection.code)",
          message: rejection.message))
    }
    rejections.sort { $0.line < $1.line }
    let unlisted = Int(summary.rejected) - summary.rejections.count
    let rejectedLines = local.count + Int(summary.rejected)

    if options.json {
      Console.out(
        JSONWriter.pretty(
          .object([
            ("lines", .number(Double(lineNumber))), ("sent", .number(Double(sentLines.count))),
            ("accepted", .number(Double(summary.accepted))),
            ("rejected", .number(Double(rejectedLines))),
            (
              "rejections",
              .array(
                rejections.map {
                  .object([
                    ("line", .number(Double($0.line))), ("id", .string($0.id)),
                    ("code", .string($0.code)), ("message", .string($0.message)),
                  ])
                })
            ),
          ])) + "\n")
    } else {
      Console.out(
        "published \(sentLines.count) values from \(lineNumber) lines: "
          + "\(summary.accepted) accepted, \(rejectedLines) rejected\n")
    }
    guard rejectedLines == 0 else {
      if options.json { return .rejected }
      var details = rejections.map { rejection in
        "line \(rejection.line): "
          + (rejection.id.isEmpty ? "" : "\(rejection.id): ")
          + "\(rejection.code): \(rejection.message)"
      }
      if unlisted > 0 { details.append("and \(unlisted) more the server did not itemise") }
      throw .rejected(
        "publish: \(rejectedLines) line\(rejectedLines == 1 ? " was" : "s were") rejected", details)
    }
    return .ok
  }
}
