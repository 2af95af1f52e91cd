import Glibc

// The few terminal calls a command-line client needs.
extension Syscall {
  public static func isTerminal(fd: Int32) -> Bool {
    isatty(fd) == 1
  }

  /// The window size of the terminal on `fd`, nil when `fd` is not one (or
  /// reports no size).
  public static func terminalSize(fd: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  public static func terminalAttributes(fd: Int32) throws(IOError) -> termios {
    var attributes = termios()
    _ = try retryingInterrupts("tcgetattr") { tcgetattr(fd, &attributes) }
    return attributes
  }

  /// Applies at once (`TCSANOW`).
  public static func setTerminalAttributes(fd: Int32, _ attributes: termios) throws(IOError) {
    var attributes = attributes
    _ = try retryingInterrupts("tcsetattr") { tcsetattr(fd, TCSANOW, &attributes) }
  }

  /// Wall-clock time in Unix milliseconds.
  public static func wallClockMilliseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }
}
