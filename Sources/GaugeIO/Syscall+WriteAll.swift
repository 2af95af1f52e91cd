extension Syscall {
  /// Writes all of `text` to `fd`, resuming after partial writes and
  /// waiting while a non-blocking descriptor is full. False when the
  /// descriptor no longer takes output (a reader that went away: EPIPE,
  /// with SIGPIPE ignored), which callers writing to a console ignore.
  @discardableResult
  public static func writeAll(_ text: String, to fd: Int32) -> Bool {
    writeAllReportingFailure(text, to: fd) == nil
  }

  /// `writeAll`, saying why the descriptor stopped taking output.
  public static func writeAllReportingFailure(_ text: String, to fd: Int32) -> IOError? {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      var failure: IOError?
      let written = bytes[offset...].withUnsafeBytes { buffer -> IOResult<Int>? in
        do throws(IOError) {
          return try write(fd: fd, buffer: buffer)
        } catch {
          failure = error
          return nil
        }
      }
      guard let result = written else { return failure }
      switch result {
      case .processed(let count): offset += count
      case .wouldBlock: _ = try? waitUntilWritable(fd: fd)
      }
    }
    bytes.removeAll()
    return nil
  }
}
