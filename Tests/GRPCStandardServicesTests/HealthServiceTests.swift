import GRPCCore
import Testing

@testable import GRPCStandardServices
@testable import GRPCTransport

/// Stands in for a connection: records what a call sends, queuing it on
/// the stream as a connection would, and lets the test say when flow
/// control has taken it.
// @unchecked Sendable: a test drives it from one thread.
private final class RecordingSink: ServerCallSink, LoopExecutor, @unchecked Sendable {
  var sent: [[UInt8]] = []
  var finished: GRPCStatus?
  private var stream: ServerStream?

  /// What the call's stream holds; set to 0 when flow control took it all.
  var queuedBytes: Int {
    get { stream?.pendingOutboundBytes ?? 0 }
    set {
      precondition(newValue == 0, "flow control takes everything or nothing here")
      _ = stream?.discardOutbound()
    }
  }

  func sendInitialMetadata(_ stream: ServerStream, metadata: Metadata) {}
  func send(_ stream: ServerStream, message: [UInt8], compress: Bool) {
    sent.append(message)
    self.stream = stream
    MessageFramer.append(message, compressed: false, to: &stream.outbound)
  }
  func send(_ stream: ServerStream, framed: FramedMessage) {
    send(stream, message: framed.message, compress: false)
  }
  func send(
    _ stream: ServerStream, messageOfSize size: Int, compress: Bool,
    writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    let message = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      write(UnsafeMutableRawBufferPointer(buffer))
      count = size
    }
    send(stream, message: message, compress: compress)
  }
  func finish(_ stream: ServerStream, status: GRPCStatus, trailers: Metadata) {
    finished = status
  }
  func execute(_ work: @escaping @Sendable () -> Void) { work() }
  var inLoop: Bool { true }
  var loopExecutor: any LoopExecutor { self }
  var now: ContinuousClock.Instant { .now }
  func releaseOutboundBuffer(_ stream: ServerStream) {}
  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    ScheduledWork(cancel: {})
  }
}

private func request(_ service: String) -> [UInt8] {
  [0x0A, UInt8(service.utf8.count)] + Array(service.utf8)
}

/// HealthCheckResponse { status = 1 } is one varint field: 0x08, status.
private func statuses(_ messages: [[UInt8]]) -> [ServingStatus?] {
  messages.map { $0.count == 2 && $0[0] == 0x08 ? ServingStatus(rawValue: Int32($0[1])) : nil }
}

/// A Watch call on `health`, asked about `service`.
private func watch(_ health: HealthService, _ service: String) -> (
  RecordingSink, ServerCall, RPCHandler
) {
  let sink = RecordingSink()
  let call = ServerCall(
    service: health.serviceName, method: "Watch", metadata: Metadata(), deadline: nil,
    stream: ServerStream(id: 1, maxMessageBytes: 1 << 20), sink: sink)
  let handler = health.makeHandler(method: "Watch", call: call)!
  handler.receive(message: request(service))
  handler.receiveEnd()
  return (sink, call, handler)
}

@Suite struct HealthServiceTests {
  @Test func theServerAndEveryServiceStartServing() {
    let health = HealthService(services: ["a.A", "b.B"])
    #expect(health.status(for: "") == .serving)
    #expect(health.status(for: "a.A") == .serving)
    #expect(health.status(for: "c.C") == nil)
  }

  @Test func shutdownMakesEverythingNotServingForGood() {
    let health = HealthService(services: ["a.A"])
    health.shutdown()
    #expect(health.status(for: "") == .notServing)
    #expect(health.status(for: "a.A") == .notServing)
    health.setStatus(.serving, for: "a.A")
    #expect(health.status(for: "a.A") == .notServing)
  }

  @Test func watchSendsTheStatusAtOnceThenEachChange() {
    let health = HealthService(services: ["a.A"])
    let (sink, _, _) = watch(health, "a.A")
    #expect(statuses(sink.sent) == [.serving])
    sink.queuedBytes = 0
    health.setStatus(.notServing, for: "a.A")
    sink.queuedBytes = 0
    health.setStatus(.notServing, for: "a.A")  // no change, nothing sent
    health.setStatus(.serving, for: "b.B")  // another service
    health.setStatus(.serving, for: "a.A")
    #expect(statuses(sink.sent) == [.serving, .notServing, .serving])
  }

  @Test func anUnknownServiceIsWatchedUntilItAppears() {
    let health = HealthService()
    let (sink, call, _) = watch(health, "late.Service")
    #expect(statuses(sink.sent) == [.serviceUnknown])
    #expect(!call.isFinished)
    sink.queuedBytes = 0
    health.setStatus(.serving, for: "late.Service")
    #expect(statuses(sink.sent) == [.serviceUnknown, .serving])
  }

  @Test func aSlowReaderGetsOnlyTheLatestStatusOnceItDrains() {
    let health = HealthService(services: ["a.A"])
    let (sink, call, _) = watch(health, "a.A")
    // The first answer is still queued: changes wait, and only the last counts.
    health.setStatus(.notServing, for: "a.A")
    health.setStatus(.unknown, for: "a.A")
    health.setStatus(.notServing, for: "a.A")
    #expect(statuses(sink.sent) == [.serving])
    sink.queuedBytes = 0
    call.onOutboundDrained?()
    #expect(statuses(sink.sent) == [.serving, .notServing])
    // Drained again with nothing new: nothing is sent.
    sink.queuedBytes = 0
    call.onOutboundDrained?()
    #expect(sink.sent.count == 2)
  }

  @Test func cancelledWatchersAreForgotten() {
    let health = HealthService(services: ["a.A"])
    let (sink, _, handler) = watch(health, "a.A")
    handler.cancel(GRPCStatus(.cancelled))
    sink.queuedBytes = 0
    health.setStatus(.notServing, for: "a.A")
    #expect(statuses(sink.sent) == [.serving])
  }

  @Test func shutdownReachesWatchers() {
    let health = HealthService(services: ["a.A"])
    let (sink, _, _) = watch(health, "")
    sink.queuedBytes = 0
    health.shutdown()
    #expect(statuses(sink.sent) == [.serving, .notServing])
  }

  @Test func watchWithoutExactlyOneRequestFails() {
    let health = HealthService()
    let sink = RecordingSink()
    let call = ServerCall(
      service: health.serviceName, method: "Watch", metadata: Metadata(), deadline: nil,
      stream: ServerStream(id: 1, maxMessageBytes: 1 << 20), sink: sink)
    let handler = health.makeHandler(method: "Watch", call: call)!
    handler.receiveEnd()
    #expect(sink.finished?.code == .unimplemented)
    #expect(sink.sent.isEmpty)
  }

  /// protobuf-c cuts a string at a NUL: the name must be refused, not
  /// answered for the service named by its first part.
  @Test func aServiceNameWithANulOrNotUTF8IsNotARequest() {
    func request(_ name: [UInt8]) -> [UInt8] { [0x0A, UInt8(name.count)] + name }
    let widgets = Array("gauge.v1.WidgetService".utf8)
    #expect(HealthWire.decodeRequest(request(widgets)) == "gauge.v1.WidgetService")
    #expect(HealthWire.decodeRequest(request(Array("é".utf8))) == "é")
    #expect(HealthWire.decodeRequest([]) == "")
    #expect(HealthWire.decodeRequest(request(widgets + [0, 0x78])) == nil)
    #expect(HealthWire.decodeRequest(request([0x67, 0xC0])) == nil)
    #expect(HealthWire.decodeRequest([0x0A, 0x05, 0x61]) == nil)
  }
}
