import Glibc

/// Writes straight to a descriptor: C's `stdout`/`stderr` globals are not
/// concurrency-safe, and a line written whole is what log readers want.
enum Console {
  static func out(_ line: String) {
    write(line + "\n", to: 1)
  }

  static func error(_ line: String) {
    write(line + "\n", to: 2)
  }

  private static func write(_ text: String, to fd: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeMutableBytes {
        Glibc.write(fd, $0.baseAddress, $0.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
    bytes.removeAll()
  }
}
