import Testing

@testable import GaugeMetrics

@Suite struct ProcessMetricsTests {
  @Test func readsTheStatLineWithAwkwardCommandNames() throws {
    // The command name may hold spaces and parentheses.
    let line =
      "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1234 8192000 300 "
      + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
    let stat = try #require(ProcessMetrics.SelfStat(line))
    #expect(stat.userTicks == 250)
    #expect(stat.systemTicks == 50)
    #expect(stat.startTicks == 1234)
    #expect(stat.virtualBytes == 8_192_000)
    #expect(stat.residentPages == 300)
  }

  @Test func collectsEveryFamilyOnLinux() {
    let names = Set(ProcessMetrics.families().map(\.name))
    #expect(
      names.isSuperset(of: [
        "process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
        "process_max_fds", "process_start_time_seconds",
      ]))
  }
}
