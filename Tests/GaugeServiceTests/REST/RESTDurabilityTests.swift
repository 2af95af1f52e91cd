import GRPCTransport
import GRPCTransportTesting
import GaugeDomain
import Synchronization
import Testing

@testable import GaugeService

/// Persistence that holds durability callbacks until the test settles them.
final class HeldPersistence: WidgetPersistence {
  private let waiting = Mutex<[@Sendable (Result<Void, WidgetError>) -> Void]>([])

  func record(_ change: WidgetChange, removedAtMs: Int64?) {}
  func recordValue(_ change: ValueChange) {}
  var writeBlocker: WidgetError? { nil }

  func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    waiting.withLock { $0.append(done) }
  }

  func settle(_ result: Result<Void, WidgetError>) {
    let callbacks = waiting.withLock { waiting in
      defer { waiting.removeAll() }
      return waiting
    }
    for callback in callbacks { callback(result) }
  }
}

@Suite struct RESTDurabilityTests {
  let persistence = HeldPersistence()
  var face: RESTFace { RESTFace(store: InMemoryWidgetStore(persistence: persistence)) }

  private func put(_ face: RESTFace) -> RecordingHTTPExchange {
    let exchange = RecordingHTTPExchange()
    face.handle(
      HTTPRequest(
        method: "PUT", target: "/widgets/cpu", headers: ["content-type": "application/json"],
        body: Array(#"{"content": {"template": "progress", "value": 0.5}}"#.utf8)),
      exchange: exchange)
    return exchange
  }

  @Test func aWriteIsAnsweredOnlyOnceDurable() {
    let exchange = put(face)
    #expect(exchange.responses.isEmpty)
    persistence.settle(.success(()))
    #expect(exchange.responses.map(\.status) == [201])
  }

  @Test func aDurabilityFailureIsA503() {
    let exchange = put(face)
    persistence.settle(.failure(.unavailable("the disk is full")))
    #expect(exchange.responses.map(\.status) == [503])
    #expect(exchange.responses.first?.json?["detail"] == .string("the disk is full"))
  }

  @Test func readsDoNotWait() {
    let face = self.face
    _ = put(face)
    let exchange = RecordingHTTPExchange()
    face.handle(HTTPRequest(method: "GET", target: "/widgets/cpu"), exchange: exchange)
    #expect(exchange.responses.map(\.status) == [200])
  }
}
