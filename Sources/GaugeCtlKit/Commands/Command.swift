/// One gaugectl subcommand: its name, help, the flags it takes, and what
/// it does. `run` returns the exit code or throws the error to report.
protocol Command {
  static var name: String { get }
  /// One line for the command list.
  static var summary: String { get }
  /// The full help: usage line(s) and the command's own flags.
  static var help: String { get }
  static var flags: [FlagSpec] { get }
  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
}

extension Command {
  /// Exactly `count` positionals, or a usage error naming what is missing.
  static func positionals(_ arguments: Arguments, _ names: [String]) throws(CLIError) -> [String] {
    guard arguments.positionals.count == names.count else {
      if arguments.positionals.count < names.count {
        let missing = names[arguments.positionals.count...].joined(separator: " ")
        throw .usage("\(name) needs \(missing)")
      }
      throw .usage(
        "\(name) takes \(names.joined(separator: " ")), got an extra \"\(arguments.positionals[names.count])\""
      )
    }
    return arguments.positionals
  }
}
