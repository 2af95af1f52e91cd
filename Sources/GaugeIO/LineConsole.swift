/// Whole lines to standard output or error, each in one `writeAll`: C's
/// `stdout` and `stderr` globals are not concurrency-safe, and the readers
/// of gauged's log and of gauge-bench's JSON lines take them line by line.
public enum LineConsole {
  public static func out(_ line: String) {
    Syscall.writeAll(line + "\n", to: 1)
  }

  public static func error(_ line: String) {
    Syscall.writeAll(line + "\n", to: 2)
  }
}
