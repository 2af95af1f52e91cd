/// Why a command failed: what to print on standard error, and the exit code.
public struct CLIError: Error, Equatable, Sendable {
  public var code: ExitCode
  /// The first line follows "gaugectl: "; later lines are printed indented.
  public var lines: [String]

  public init(_ code: ExitCode, _ lines: [String]) {
    self.code = code
    self.lines = lines
  }

  public static func usage(_ message: String) -> CLIError {
    CLIError(.usage, [message, "run \"gaugectl --help\" for usage"])
  }

  public static func rejected(_ message: String, _ details: [String] = []) -> CLIError {
    CLIError(.rejected, [message] + details)
  }

  public static func unreachable(_ message: String) -> CLIError {
    CLIError(.unreachable, [message])
  }

  /// The text for standard error.
  public var text: String {
    guard let first = lines.first else { return "gaugectl: failed\n" }
    return (["gaugectl: " + first] + lines.dropFirst().map { "  " + $0 }).joined(separator: "\n")
      + "\n"
  }
}
