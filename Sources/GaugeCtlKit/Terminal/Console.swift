import GaugeIO
import Glibc
import Synchronization

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
    writeRaw(text.escapingControlCharacters, to: fd)
  }

  /// For the terminal codes gaugectl makes itself, around text a `Palette`
  /// has already escaped.
  @discardableResult
  static func writeTerminalCodes(_ text: String, to fd: Int32 = 1) -> Bool {
    writeRaw(text, to: fd)
  }

  /// The first failure to write standard output other than a reader that
  /// went away (a full disk, a closed descriptor): `GaugeCtl.main` turns
  /// it into exit 1, so output that was lost does not pass for success.
  static let standardOutputFailure = Mutex<IOError?>(nil)

  private static func writeRaw(_ text: String, to fd: Int32) -> Bool {
    guard let failure = Syscall.writeAllReportingFailure(text, to: fd) else { return true }
    if fd == 1, failure.errno != EPIPE {
      standardOutputFailure.withLock { if $0 == nil { $0 = failure } }
    }
    return false
  }
}
