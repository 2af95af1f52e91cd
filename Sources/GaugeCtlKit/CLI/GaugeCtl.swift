/// gaugectl's command line: finds the command, parses its flags and the
/// global ones (before or after the command), runs it, and turns failures
/// into a message on standard error and an exit code.
public enum GaugeCtl {
  public static let version = "0.1.0"

  static var commands: [any Command.Type] {
    [
      PutCommand.self, SetCommand.self, GetCommand.self, ListCommand.self, RemoveCommand.self,
      PublishCommand.self, WatchCommand.self, TokenCommand.self,
    ]
  }

  static var usage: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let list = commands.map { "  \(DisplayWidth.pad($0.name, to: width))  \($0.summary)" }
      .joined(separator: "\n")
    return """
      gaugectl: the command-line client of gauged.

      Usage: gaugectl [global options] COMMAND [arguments]

      Commands:
      \(list)

      Global options:
        --server ADDRESS       gauged's address (default $GAUGED_SERVER, else \(GlobalOptions.defaultServer)):
                               HOST:PORT, where HOST is an IP address, [IPv6] or
                               localhost, or unix:PATH for a Unix domain socket
        --timeout DURATION     per call and for connecting (default 10s); 500ms, 5s, 2m
        --token TOKEN          sent as "authorization: Bearer TOKEN" (default
                               $GAUGED_TOKEN)
        --json                 machine-readable output
        --gzip                 compress requests, accept compressed responses
        --tls                  TLS (ALPN h2): the certificate must name the host
                               of --server and be trusted by the system
        --cacert FILE          trust the CA certificates in this PEM file
                               instead of the system's (implies --tls)
        -h, --help             help; "gaugectl COMMAND --help" for a command's
        --version

      Exit codes: 0 ok, 1 rejected input, 2 usage error, 3 server unreachable.
      """
  }

  /// Runs one command line (without the program name) and returns the
  /// process exit code.
  public static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
    let code: ExitCode
    do {
      code = try run(arguments, environment: environment)
    } catch {
      Console.error(error.text)
      return error.code.rawValue
    }
    if code == .ok, let failure = Console.standardOutputFailure.withLock({ $0 }) {
      Console.error("gaugectl: cannot write standard output: \(failure)\n")
      return ExitCode.rejected.rawValue
    }
    return code.rawValue
  }

  static func run(_ arguments: [String], environment: [String: String]) throws(CLIError) -> ExitCode
  {
    var leading: [String] = []
    var rest = arguments[...]
    // Global options may come before the command.
    while let next = rest.first, next.hasPrefix("-"), next != "-" {
      leading.append(rest.removeFirst())
      let name = String(next.drop { $0 == "-" })
      if GlobalOptions.flags.contains(where: { $0.name == name && $0.takesValue }),
        let value = rest.popFirst()
      {
        leading.append(value)
      }
    }
    guard let name = rest.popFirst() else {
      if leading.contains("--version") {
        Console.out("gaugectl \(version)\n")
        return .ok
      }
      if leading.contains("--help") || leading.contains("-h") {
        Console.out(usage + "\n")
        return .ok
      }
      throw .usage("no command given")
    }
    if name == "help" {
      if let topic = rest.first, let command = commands.first(where: { $0.name == topic }) {
        Console.out(command.help + "\n")
      } else {
        Console.out(usage + "\n")
      }
      return .ok
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      throw .usage("unknown command \"\(name)\"")
    }
    let parsed = try Arguments.parse(
      leading + Array(rest), accepting: GlobalOptions.flags + command.flags)
    if parsed.has("help") {
      Console.out(command.help + "\n")
      return .ok
    }
    let options = try GlobalOptions(parsed, environment: environment)
    return try command.run(parsed, options, environment)
  }
}
