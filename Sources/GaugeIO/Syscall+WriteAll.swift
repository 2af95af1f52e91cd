extension Syscall {
  /// Writes all of `text` to `fd`, resuming after partial writes and
  /// waiting while a non-blocking descriptor is full. False when the
  /// descriptor no longer takes output (a reader that went away: EPIPE,
  /// with SIGPIPE ignored), which callers writing to a console ignore.
  @discardableResult
  public static func writeAll(_ text: String, to fd: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let result = try? bytes[offset...].withUnsafeBytes { buffer throws(IOError) in
        try write(fd: fd, buffer: buffer)
      }
      switch result {
      case .processed(let count)?: offset += count
      case .wouldBlock?: _ = try? waitUntilWritable(fd: fd)
      case nil: return false
      }
    }
    bytes.removeAll()
    return true
  }
}
