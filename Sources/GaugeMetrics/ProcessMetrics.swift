import Glibc

/// The process collector every Prometheus client has, read from `/proc`:
/// CPU time, resident memory, descriptors open and allowed, start time.
/// A figure that cannot be read is left out rather than shown as zero.
public enum ProcessMetrics {
  public static func families() -> [MetricFamily] {
    var families: [MetricFamily] = []
    let stat = readFile("/proc/self/stat").flatMap(SelfStat.init)
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
    if let stat, ticks > 0 {
      families.append(
        MetricFamily(
          name: "process_cpu_seconds_total",
          help: "Total user and system CPU time spent in seconds.",
          kind: .counter, series: [MetricSeries(Double(stat.userTicks + stat.systemTicks) / ticks)])
      )
    }
    if let stat {
      families.append(
        MetricFamily(
          name: "process_resident_memory_bytes", help: "Resident memory size in bytes.",
          kind: .gauge, series: [MetricSeries(Double(stat.residentPages) * pageSize)]))
      families.append(
        MetricFamily(
          name: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.",
          kind: .gauge, series: [MetricSeries(Double(stat.virtualBytes))]))
    }
    if let open = openDescriptors() {
      families.append(
        MetricFamily(
          name: "process_open_fds", help: "Number of open file descriptors.", kind: .gauge,
          series: [MetricSeries(Double(open))]))
    }
    var limit = rlimit()
    if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
      families.append(
        MetricFamily(
          name: "process_max_fds", help: "Maximum number of open file descriptors.", kind: .gauge,
          series: [MetricSeries(Double(limit.rlim_cur))]))
    }
    if let stat, ticks > 0, let bootTime = bootTime() {
      families.append(
        MetricFamily(
          name: "process_start_time_seconds",
          help: "Start time of the process since unix epoch in seconds.", kind: .gauge,
          series: [MetricSeries(bootTime + Double(stat.startTicks) / ticks)]))
    }
    return families
  }

  /// The fields of `/proc/self/stat` used here. The command name in
  /// parentheses may hold spaces and parentheses itself, so the fields are
  /// counted from the last `)`.
  struct SelfStat {
    var userTicks: UInt64
    var systemTicks: UInt64
    var startTicks: UInt64
    var virtualBytes: UInt64
    var residentPages: UInt64

    init?(_ text: String) {
      guard let close = text.lastIndex(of: ")") else { return nil }
      // After ")": field 3 (state) onwards, so field N is at N - 3.
      let fields = text[text.index(after: close)...].split(separator: " ")
      func field(_ number: Int) -> UInt64? {
        let index = number - 3
        return fields.indices.contains(index) ? UInt64(fields[index]) : nil
      }
      guard let user = field(14), let system = field(15), let start = field(22),
        let virtual = field(23), let resident = field(24)
      else { return nil }
      userTicks = user
      systemTicks = system
      startTicks = start
      virtualBytes = virtual
      residentPages = resident
    }
  }

  /// `btime` in `/proc/stat`: when the machine booted, in Unix seconds.
  private static func bootTime() -> Double? {
    guard let text = readFile("/proc/stat") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
      return Double(line.dropFirst(6).trimmingPrefix(" "))
    }
    return nil
  }

  private static func openDescriptors() -> Int? {
    guard let directory = opendir("/proc/self/fd") else { return nil }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
        name[0] == UInt8(ascii: ".")
      }
      if !isDot { count += 1 }
    }
    // The directory being read holds a descriptor of its own.
    return max(0, count - 1)
  }

  static func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
