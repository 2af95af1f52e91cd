import GaugeIO
import Glibc

/// Writes whole strings to standard output or error. A reader that went
/// away (EPIPE, with SIGPIPE ignored) is not an error worth reporting.
public enum Console {
  public static func out(_ text: String) {
    write(text, to: 1)
  }

  public static func error(_ text: String) {
    write(text, to: 2)
  }

  /// False when the descriptor no longer takes output.
  @discardableResult
  public static func write(_ text: String, to fd: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let result = try? bytes[offset...].withUnsafeBytes { buffer throws(IOError) in
        try Syscall.write(fd: fd, buffer: buffer)
      }
      switch result {
      case .processed(let count)?: offset += count
      case .wouldBlock?: _ = try? Syscall.waitUntilWritable(fd: fd)
      case nil: return false
      }
    }
    bytes.removeAll()
    return true
  }
}
