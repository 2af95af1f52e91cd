import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire
import Testing

@testable import GaugeFuzz

/// The harness must reach the services for real, or a quiet fuzzer would
/// prove nothing: each seed's calls get the answers a client would get.
@Suite struct CallsHarnessTests {
  private func run(_ program: CallProgram) throws -> [RecordedCall] {
    var unrecorded: [UInt8]? = nil
    return try CallsHarness.run(program.bytes, recordingClientBytes: &unrecorded)
  }

  private func codes(_ calls: [RecordedCall]) -> [String] {
    calls.map { "\($0.path.split(separator: "/").last!) \($0.status?.code.rawValue ?? -1)" }
  }

  @Test func unaryCallsAnswerAsTheServiceDoes() throws {
    let calls = try run(SeedCorpus.unaryLifecycle())
    #expect(
      codes(calls) == [
        "PutWidget 0", "PutWidget 0", "PutWidget 0", "UpdateWidget 0", "UpdateWidget 0",
        "GetWidget 0", "ListWidgets 0", "DeleteWidget 0", "GetWidget 5",
      ])
    #expect(calls[5].messages.count == 1)
  }

  @Test func subscribersSeeSnapshotThenPublishedValues() throws {
    let calls = try run(SeedCorpus.publishAndSubscribe())
    let subscribe = calls[1]
    // The snapshot, its end marker, then the accepted values (101 is out of
    // bounds), coalesced to the last since they came in one batch;
    // cancelled by the client at the end.
    #expect(subscribe.messages.count >= 3)
    let last = try subscribe.messages.last!.withUnsafeBytes { bytes in
      try WidgetWire.decodeWidgetEvent(bytes)
    }
    guard case .upsert(let widget) = last, case .gauge(let gauge) = widget.content.template else {
      Issue.record("the last event is \(last), not the gauge")
      return
    }
    #expect(gauge.value == 40)
    #expect(subscribe.status?.code == .cancelled)
    let publish = calls[3]
    #expect(publish.status?.code == .ok)
  }

  @Test func invalidRequestsGetTheirStatus() throws {
    let calls = try run(SeedCorpus.rejections())
    #expect(
      codes(calls) == [
        // A message that is not the request's type: INTERNAL, as grpc's
        // statuscodes.md has it for an unparsable request.
        "PutWidget 3", "UpdateWidget 3", "GetWidget 3", "ListWidgets 3", "GetWidget 13",
        "Service 12",
      ])
    #expect(calls[0].status?.message.contains("content.gauge.value") == true)
  }

  @Test func compressedCallsAnswerAsUncompressedOnes() throws {
    let calls = try run(SeedCorpus.compressed())
    #expect(codes(calls) == ["PutWidget 0", "Subscribe 1", "PublishValues 0", "ListWidgets 0"])
    // Snapshot, sync marker, then the published value, all inflated.
    #expect(calls[1].messages.count == 3)
    #expect(calls[3].messages.count == 1)
  }

  @Test func aStoredGaugeOutsideItsBoundsIsAFinding() {
    let content = Content(template: .gauge(Gauge(value: 150, minValue: 0, maxValue: 100)))
    let store = InMemoryWidgetStore(widgets: [
      Widget(id: "w", name: "", content: content, revision: 1, createdAtMs: 0, updatedAtMs: 0)
    ])
    #expect(throws: FuzzFinding.self) { try StoreCheck.verify(store) }
  }

  @Test func aLiveSubscriberBehindTheStoreIsAFinding() throws {
    let gauge = Content(template: .gauge(Gauge(value: 5, minValue: 0, maxValue: 10)))
    let stored = Widget(
      id: "w", name: "", content: gauge, revision: 6, createdAtMs: 0, updatedAtMs: 0)
    let store = InMemoryWidgetStore(widgets: [stored], lastRevision: 6)
    let subscriber = RecordedCall(path: "/gauge.v1.WidgetService/Subscribe")
    subscriber.send(WidgetWire.encodeSubscribeRequest(SubscribeQuery(ids: ["w"])))
    var older = stored
    older.revision = 5
    subscriber.received(message: WidgetWire.encodeWidgetEvent(.upsert(older)))
    subscriber.received(message: WidgetWire.encodeWidgetEvent(.synced(revision: 5)))
    #expect(throws: FuzzFinding.self) { try SubscriptionCheck.verify(subscriber, store: store) }

    subscriber.received(message: WidgetWire.encodeWidgetEvent(.upsert(stored)))
    try SubscriptionCheck.verify(subscriber, store: store)
  }

  @Test func aCallFinishedTwiceIsABreach() {
    let call = RecordedCall(path: "/gauge.v1.WidgetService/GetWidget")
    call.finished(status: .ok, trailers: Metadata())
    call.received(message: [])
    call.finished(status: GRPCStatus(.internal, "again"), trailers: Metadata())
    #expect(call.breaches.count == 2)
  }
}
