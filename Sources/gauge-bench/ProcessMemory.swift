import GaugeIO
import Glibc

/// A process's resident memory, from `/proc/PID/status`.
enum ProcessMemory {
  /// VmRSS in bytes, or nil when the process or the field is not there.
  static func residentBytes(pid: Int32) -> Int? {
    guard let status = ProcessFiles.read("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      // "VmRSS:	   12345 kB"
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
      return kilobytes * 1024
    }
    return nil
  }
}
