import GRPCCore
import GRPCTransport
import GRPCTransportTesting
import GaugeDomain
import Testing

@testable import GaugeService

/// An exchange that streams into memory; the test says how much the
/// "socket" still holds.
private final class StreamingExchange: HTTPExchange {
  private(set) var responses: [HTTPResponse] = []
  private(set) var streamHeaders: HTTPFields?
  private(set) var written: [UInt8] = []
  private(set) var finished = false
  let scheduler: any CallScheduler = ManualScheduler()
  var onOutboundDrained: (() -> Void)?
  var onCancel: (() -> Void)?
  var pendingOutboundBytes = 0
  var isFinished: Bool { finished || !responses.isEmpty }

  func respond(_ response: HTTPResponse) { responses.append(response) }
  func startStream(status: Int, headers: HTTPFields) { streamHeaders = headers }
  func write(_ bytes: [UInt8]) { written += bytes }
  func finish() { finished = true }

  /// The events so far, each as its lines, and forgets them.
  func takeEvents() -> [[String]] {
    let text = String(decoding: written, as: UTF8.self)
    written = []
    return text.split(separator: "\n\n").map { $0.split(separator: "\n").map(String.init) }
  }
}

@Suite struct EventsFaceTests {
  let hub = ChangeHub()
  let store: InMemoryWidgetStore
  let face: EventsFace

  init() {
    let hub = self.hub
    store = InMemoryWidgetStore(
      clock: { 1_796_161_932_123 }, observer: hub.publish, batchObserver: hub.publish(batch:))
    face = EventsFace(store: store, hub: hub)
  }

  private func gauge(_ id: String, _ value: Double) throws -> Widget {
    try store.put(
      WidgetPut(
        id: id,
        content: ContentPatch(
          template: .gauge(GaugePatch(value: value, minValue: 0, maxValue: 100))))
    ).widget
  }

  private func open(_ target: String, headers: HTTPFields = [:]) -> StreamingExchange {
    let exchange = StreamingExchange()
    face.handle(HTTPRequest(method: "GET", target: target, headers: headers), exchange: exchange)
    return exchange
  }

  @Test func snapshotThenSyncedThenLiveEachLiveOneWithItsRevision() throws {
    _ = try gauge("cpu", 1)
    // synced names the store's revision, not only the matching widgets'.
    let last = try gauge("disk", 2)
    let exchange = open("/widgets/events?ids=cpu")
    #expect(exchange.streamHeaders?["content-type"] == "text/event-stream")
    let start = exchange.takeEvents()
    #expect(start.count == 2)
    #expect(start[0].first == "event: upsert")
    #expect(!start[0].contains { $0.hasPrefix("id:") })
    #expect(start[0].last?.contains("\"id\":\"cpu\"") == true)
    #expect(
      start[1] == [
        "id: \(last.revision)", "event: synced", "data: {\"revision\":\(last.revision)}",
      ])
    let changed = try store.setValue(5, id: "cpu")
    _ = try store.setValue(6, id: "disk")
    let live = exchange.takeEvents()
    #expect(live.count == 1)
    #expect(live[0].first == "id: \(changed.revision)")
    #expect(live[0].last?.contains("\"value\":5") == true)
    try store.delete(id: "cpu")
    #expect(exchange.takeEvents().first?[1] == "event: removed")
  }

  @Test func lastEventIDResumesWithOnlyWhatChanged() throws {
    let first = try gauge("a", 1)
    _ = try gauge("b", 2)
    let moved = try store.setValue(3, id: "b")
    let exchange = open("/widgets/events", headers: ["last-event-id": "\(first.revision)"])
    let events = exchange.takeEvents()
    #expect(events.count == 2)
    #expect(events[0].last?.contains("\"id\":\"b\"") == true)
    #expect(events[1].first == "id: \(moved.revision)")
  }

  @Test func aSlowReaderGetsTheLatestValueAndNoIDUntilCaughtUp() throws {
    _ = try gauge("cpu", 1)
    _ = try gauge("mem", 1)
    let exchange = open("/widgets/events")
    _ = exchange.takeEvents()
    exchange.pendingOutboundBytes = 1 << 20
    for value in 2...50 { _ = try store.setValue(Double(value), id: "cpu") }
    let memory = try store.setValue(7, id: "mem")
    #expect(exchange.takeEvents().isEmpty)
    exchange.pendingOutboundBytes = 0
    exchange.onOutboundDrained?()
    let events = exchange.takeEvents()
    #expect(events.count == 2)
    #expect(events[0].contains { $0.contains("\"value\":50") })
    // Sent behind a later revision (mem's): resuming from it would skip mem.
    #expect(!events[0].contains { $0.hasPrefix("id:") })
    #expect(events[1].first == "id: \(memory.revision)")
  }

  @Test func badQueriesAreNamedProblems() throws {
    let exchange = open("/widgets/events?min_interval_ms=-1&colour=red")
    let response = try #require(exchange.responses.first)
    #expect(response.status == 422)
    let body = String(decoding: response.body, as: UTF8.self)
    #expect(body.contains("\"field\":\"min_interval_ms\""))
    #expect(body.contains("\"field\":\"colour\""))
  }

  @Test func cancellingDetachesFromTheHub() throws {
    _ = try gauge("cpu", 1)
    let exchange = open("/widgets/events")
    _ = exchange.takeEvents()
    exchange.onCancel?()
    _ = try store.setValue(9, id: "cpu")
    #expect(exchange.takeEvents().isEmpty)
  }
}
