import GaugeIO

/// Writes whole strings to standard output or error. A reader that went
/// away (EPIPE, with SIGPIPE ignored) is not an error worth reporting.
public enum Console {
  public static func out(_ text: String) {
    write(text, to: 1)
  }

  public static func error(_ text: String) {
    write(text, to: 2)
  }

  /// False when the descriptor no longer takes output. Control characters
  /// in `text` are escaped: it may carry widget text.
  @discardableResult
  public static func write(_ text: String, to fd: Int32) -> Bool {
    Syscall.writeAll(text.escapingControlCharacters, to: fd)
  }

  /// For the terminal codes gaugectl makes itself, around text a `Palette`
  /// has already escaped.
  @discardableResult
  static func writeTerminalCodes(_ text: String, to fd: Int32 = 1) -> Bool {
    Syscall.writeAll(text, to: fd)
  }
}
