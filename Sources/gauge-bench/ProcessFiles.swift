import GaugeIO
import Glibc

/// Small files under /proc, read whole.
enum ProcessFiles {
  static func read(_ path: String) -> String? {
    guard let fd = try? Syscall.open(path: path, flags: O_RDONLY) else { return nil }
    defer { Syscall.close(fd: fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let result = try? chunk.withUnsafeMutableBytes { buffer throws(IOError) in
        try Syscall.read(fd: fd, into: buffer)
      }
      guard case .processed(let count)? = result else { return nil }
      if count == 0 { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
