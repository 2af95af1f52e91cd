import GaugeIO

/// Whole lines straight to standard output or error: C's `stdout` and
/// `stderr` globals are not concurrency-safe, and `scripts/bench` reads
/// stdout line by line.
enum Console {
  static func out(_ line: String) {
    write(line + "\n", to: 1)
  }

  static func error(_ line: String) {
    write(line + "\n", to: 2)
  }

  private static func write(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let result = try? bytes[offset...].withUnsafeBytes { buffer throws(IOError) in
        try Syscall.write(fd: fd, buffer: buffer)
      }
      guard case .processed(let count)? = result, count > 0 else { return }
      offset += count
    }
  }
}
