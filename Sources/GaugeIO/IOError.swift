import Glibc

/// A failed system call: which call, and the `errno` it left behind.
public struct IOError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The C name of the call that failed, e.g. `"accept4"`.
  public var call: String
  public var errno: Int32

  public init(call: String, errno: Int32) {
    self.call = call
    self.errno = errno
  }

  /// For example `accept4: Too many open files (errno 24)`.
  public var description: String {
    "\(call): \(Self.message(for: self.errno)) (errno \(self.errno))"
  }

  private static func message(for code: Int32) -> String {
    // strerror_r rather than strerror: the message may be built on any thread.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
      guard strerror_r(code, buffer.baseAddress!, buffer.count) == 0 else {
        return "Unknown error"
      }
      return String(cString: buffer.baseAddress!)
    }
  }
}
