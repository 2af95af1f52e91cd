import GaugeIO
import Glibc

/// A process's resident memory, from `/proc/PID/status`.
enum ProcessMemory {
  /// VmRSS in bytes, or nil when the process or the field is not there.
  static func residentBytes(pid: Int32) -> Int? {
    guard let status = read("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      // "VmRSS:	   12345 kB"
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
      return kilobytes * 1024
    }
    return nil
  }

  private static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
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
