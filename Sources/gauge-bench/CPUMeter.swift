import GaugeIO
import Glibc

/// CPU time the load generator and the server spent over a stretch of
/// wall time, as a percentage of one core: the load generator shares the
/// server's cores, so every figure says how much it took. Also how long
/// each side's threads waited for a core (`RunQueueWait`).
struct CPUMeter {
  private let serverPID: Int32?
  private var startedAt: UInt64 = 0
  private var selfAtStart: Double?
  private var serverAtStart: Double?
  private var selfWaitAtStart: RunQueueWait?
  private var serverWaitAtStart: RunQueueWait?
  private var wallSeconds = 0.0
  private(set) var loadSeconds: Double?
  private(set) var serverSeconds: Double?
  private(set) var loadWait: (percent: Double, meanMicros: Double)?
  private(set) var serverWait: (percent: Double, meanMicros: Double)?

  init(serverPID: Int32?) {
    self.serverPID = serverPID
  }

  mutating func start() {
    startedAt = MonotonicNanos.now()
    selfAtStart = Self.cpuSeconds(of: "self")
    serverAtStart = serverPID.flatMap { Self.cpuSeconds(of: String($0)) }
    selfWaitAtStart = RunQueueWait.sample(process: "self")
    serverWaitAtStart = serverPID.flatMap { RunQueueWait.sample(process: String($0)) }
  }

  mutating func stop() {
    let wallNanos = MonotonicNanos.now() - startedAt
    let wall = MonotonicNanos.seconds(wallNanos)
    guard wall > 0 else { return }
    wallSeconds = wall
    if let before = selfWaitAtStart, let after = RunQueueWait.sample(process: "self") {
      loadWait = after.since(before, wallNanos: wallNanos)
    }
    if let before = serverWaitAtStart, let pid = serverPID,
      let after = RunQueueWait.sample(process: String(pid))
    {
      serverWait = after.since(before, wallNanos: wallNanos)
    }
    if let before = selfAtStart, let after = Self.cpuSeconds(of: "self") {
      loadSeconds = after - before
    }
    if let before = serverAtStart, let pid = serverPID,
      let after = Self.cpuSeconds(of: String(pid))
    {
      serverSeconds = after - before
    }
  }

  var loadPercent: Double? { loadSeconds.map { $0 / wallSeconds * 100 } }
  var serverPercent: Double? { serverSeconds.map { $0 / wallSeconds * 100 } }

  func report(into line: inout JSONLine) {
    if let loadPercent { line.add("load_cpu_pct", loadPercent, decimals: 0) }
    if let serverPercent { line.add("server_cpu_pct", serverPercent, decimals: 0) }
    if let loadWait {
      line.add("load_runq_wait_pct", loadWait.percent, decimals: 0)
      line.add("load_runq_wait_us", loadWait.meanMicros, decimals: 1)
    }
    if let serverWait {
      line.add("server_runq_wait_pct", serverWait.percent, decimals: 0)
      line.add("server_runq_wait_us", serverWait.meanMicros, decimals: 1)
    }
  }

  /// CPU microseconds each side spent per `unit` (`count` of them), as
  /// `load_cpu_us_per_<unit>` and `server_cpu_us_per_<unit>`: a figure that
  /// compares across runs of different lengths.
  func report(per unit: String, count: UInt64, into line: inout JSONLine) {
    guard count > 0 else { return }
    if let loadSeconds {
      line.add("load_cpu_us_per_\(unit)", loadSeconds * 1e6 / Double(count), decimals: 1)
    }
    if let serverSeconds {
      line.add("server_cpu_us_per_\(unit)", serverSeconds * 1e6 / Double(count), decimals: 1)
    }
  }

  /// User plus system time from `/proc/<pid>/stat` (fields 14 and 15, in
  /// clock ticks, counted after the parenthesised command name).
  static func cpuSeconds(of process: String) -> Double? {
    guard let stat = ProcessFiles.read("/proc/\(process)/stat"),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is the state (field 3), so utime (14) is fields[11].
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return nil
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

extension MonotonicNanos {
  /// Sleeps the calling thread until the clock reads `deadline`.
  static func sleep(until deadline: UInt64) {
    while true {
      let now = MonotonicNanos.now()
      guard now < deadline else { return }
      let remaining = deadline - now
      var request = timespec(
        tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
      _ = nanosleep(&request, nil)
    }
  }
}
