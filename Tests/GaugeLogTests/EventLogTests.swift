import Synchronization
import Testing

@testable import GaugeLog

@Suite struct EventLogTests {
  /// 2026-12-02T01:02:03.456Z
  private let moment: Int64 = 1_796_173_323_456_789

  @Test func writesTextWithQuotedValuesWhereNeeded() {
    let log = EventLog(format: .text, level: .info)
    let line = log.line(
      .warn, "accept_paused", "cannot accept\nconnections",
      [
        LogField("listener", "127.0.0.1:1"), LogField("error", "Too many open files"),
        LogField("retry_ms", 100), LogField("paused", true),
      ], unixMicroseconds: moment)
    #expect(
      line
        == "2026-12-02T01:02:03.456Z warn accept_paused cannot accept connections "
        + "listener=127.0.0.1:1 error=\"Too many open files\" retry_ms=100 paused=true")
  }

  @Test func writesOneJSONObjectPerLine() {
    let log = EventLog(format: .json, level: .info)
    let line = log.line(
      .info, "start", "gauged \"0.1\"\nserving",
      [LogField("threads", 2), LogField("ratio", 0.5), LogField("metrics", false)],
      unixMicroseconds: moment)
    #expect(
      line
        == "{\"time\":\"2026-12-02T01:02:03.456Z\",\"level\":\"info\",\"event\":\"start\","
        + "\"msg\":\"gauged \\\"0.1\\\"\\nserving\",\"threads\":2,\"ratio\":0.5,\"metrics\":false}")
  }

  @Test func dropsEventsUnderTheLevel() {
    let lines = Mutex<[String]>([])
    let log = EventLog(format: .text, level: .warn) { line in lines.withLock { $0.append(line) } }
    log.info("start", "not shown")
    log.debug("detail", "not shown")
    log.warn("accept_paused", "shown")
    log.error("store_failed", "shown")
    #expect(lines.withLock { $0.count } == 2)
  }

  @Test func namesLevels() {
    #expect(LogLevel(name: "warn") == .warn)
    #expect(LogLevel(name: "verbose") == nil)
    #expect(LogLevel.debug < .error)
  }
}
