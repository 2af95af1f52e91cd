/// gaugectl's exit codes, the same for every command.
public enum ExitCode: Int32, Sendable {
  case ok = 0
  /// The server (or gaugectl, for unreadable input) rejected what was asked.
  case rejected = 1
  /// The command line itself is wrong.
  case usage = 2
  /// The server could not be reached, or stopped answering.
  case unreachable = 3
}
