import Glibc

extension Syscall {
  /// The bytes of the file at `path`, read to its end; refused past
  /// `limit` bytes.
  public static func readWholeFile(path: String, limit: Int) throws(IOError) -> [UInt8] {
    let fd = try open(path: path, flags: O_RDONLY)
    defer { close(fd: fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let result = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(IOError) in try read(fd: fd, into: buffer) }
      }
      guard case .processed(let count) = try result.get() else {
        // A regular file never says EAGAIN; stop rather than spin.
        throw IOError(call: "read", errno: EAGAIN)
      }
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
      if bytes.count > limit { throw IOError(call: "read", errno: EFBIG) }
    }
  }
}
