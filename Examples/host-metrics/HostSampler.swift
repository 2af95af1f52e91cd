import Foundation

/// One reading of the host: percentages and the 1-minute load.
struct HostSample {
  var cpuPercent: Double
  var memoryPercent: Double
  var diskPercent: Double
  var load1: Double
}

/// Reads `/proc` and the root file system; CPU use is the share of busy
/// time since the previous sample.
struct HostSampler {
  private var previousBusy: UInt64 = 0
  private var previousTotal: UInt64 = 0

  mutating func sample() -> HostSample {
    HostSample(
      cpuPercent: cpuPercent(), memoryPercent: Self.memoryPercent(),
      diskPercent: Self.diskPercent(path: "/"), load1: Self.load1())
  }

  private mutating func cpuPercent() -> Double {
    // cpu  user nice system idle iowait irq softirq steal ...
    guard let line = Self.read("/proc/stat")?.split(separator: "\n").first else { return 0 }
    let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
    guard fields.count >= 4 else { return 0 }
    let total = fields.prefix(8).reduce(0, +)
    let idle = fields[3] + (fields.count > 4 ? fields[4] : 0)
    let busy = total - idle
    defer {
      previousBusy = busy
      previousTotal = total
    }
    guard total > previousTotal else { return 0 }
    return Double(busy - previousBusy) / Double(total - previousTotal) * 100
  }

  private static func memoryPercent() -> Double {
    var values: [String: Double] = [:]
    for line in (read("/proc/meminfo") ?? "").split(separator: "\n") {
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      if parts.count >= 2, let value = Double(parts[1]) {
        values[String(parts[0].dropLast())] = value
      }
    }
    guard let total = values["MemTotal"], total > 0, let available = values["MemAvailable"] else {
      return 0
    }
    return (total - available) / total * 100
  }

  private static func diskPercent(path: String) -> Double {
    var stats = statvfs()
    guard statvfs(path, &stats) == 0, stats.f_blocks > 0 else { return 0 }
    let used = Double(stats.f_blocks - stats.f_bfree)
    let usable = used + Double(stats.f_bavail)
    return usable > 0 ? used / usable * 100 : 0
  }

  private static func load1() -> Double {
    guard let text = read("/proc/loadavg"), let first = text.split(separator: " ").first else {
      return 0
    }
    return Double(first) ?? 0
  }

  private static func read(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }
}
