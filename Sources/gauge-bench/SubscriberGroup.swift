import GRPCClient
import GRPCCore
import GaugeIO
import GaugeWire

/// What a loop's subscribers received.
struct DeliveryTally: Sendable {
  var subscribers = 0
  var synced = 0
  /// Live upserts received inside the window, each timed from the clock
  /// reading its value carries.
  var delivered: UInt64 = 0
  var latency = LatencyHistogram()
  /// Live upserts received at any time after `synced`.
  var deliveredEver: UInt64 = 0
  /// Their bytes as gRPC framed them (message and 5-byte prefix).
  var deliveredBytes: UInt64 = 0
  var failed = 0
  var firstFailure: String?

  /// A subscriber ended in failure. One that ends before `synced` no
  /// longer counts as a subscriber, or it would be waited for forever.
  mutating func recordFailure(_ reason: String, wasSynced: Bool) {
    failed += 1
    if firstFailure == nil { firstFailure = reason }
    if !wasSynced { subscribers -= 1 }
  }

  var allSynced: Bool { synced >= subscribers }

  mutating func merge(_ other: DeliveryTally) {
    subscribers += other.subscribers
    synced += other.synced
    delivered += other.delivered
    latency.merge(other.latency)
    deliveredEver += other.deliveredEver
    deliveredBytes += other.deliveredBytes
    failed += other.failed
    if firstFailure == nil { firstFailure = other.firstFailure }
  }
}

/// The Subscribe streams of one loop, all watching widgets whose value is
/// a sender's monotonic clock reading: counts what arrives and how late.
/// The streams speak `callProtocol` (gRPC, or gRPC-Web or Connect over the
/// same HTTP/2 connections). Lives on one loop.
final class SubscriberGroup: DeliveryGroup {
  let window: MeasureWindow
  let callProtocol: CallProtocol
  private(set) var tally = DeliveryTally()
  private var onAllSynced: (() -> Void)?
  private var deliveryWaiter = DeliveryWaiter()
  /// When the chunk being read arrived: the clock is read once per chunk,
  /// for the first event in it.
  private var arrivedAt: UInt64?

  init(window: MeasureWindow, callProtocol: CallProtocol = .grpc) {
    self.window = window
    self.callProtocol = callProtocol
  }

  /// The connections the streams ride on and how many each carries.
  private var plan: [(channel: GRPCChannel, count: Int)] = []

  /// Connects `counts.count` connections and makes one GetWidget call on
  /// each, so the server has set every one up; `ready` gets the number of
  /// failed calls.
  func connect(
    _ counts: [Int], to address: SocketAddress, on loop: EventLoop,
    configuration: ClientConfiguration, ready: @escaping (Result<Int, BenchFailure>) -> Void
  ) {
    let channels: [GRPCChannel]
    do {
      channels = try LoadLoops.connect(
        counts.count, to: address, on: loop, configuration: configuration)
    } catch {
      return ready(.failure(BenchFailure("cannot connect to \(address): \(error)")))
    }
    plan = Array(zip(channels, counts))
    for channel in channels {
      channel.onRead = { [weak self] in self?.arrivedAt = nil }
    }
    IdleConnections.warmUp(channels, ready: ready)
  }

  /// Opens the planned Subscribe streams for `ids`; `onAllSynced` runs once
  /// every one of them has had its snapshot.
  func subscribe(ids: [String], valueDeltas: Bool = false, onAllSynced: @escaping () -> Void) {
    self.onAllSynced = onAllSynced
    let request = BenchRequests.subscribe(ids: ids, valueDeltas: valueDeltas)
    for (channel, count) in plan {
      for _ in 0..<count {
        let subscriber = Subscriber(group: self)
        tally.subscribers += 1
        let call = channel.makeCall(
          path: BenchRequests.subscribe, callProtocol: callProtocol, handler: subscriber)
        call.send(request)
        call.closeSend()
      }
    }
    checkSynced()
  }

  /// Closes every connection without counting the streams it ends as failures.
  func close() {
    let counted = tally
    plan.forEach { $0.channel.close() }
    plan = []
    tally = counted
  }

  /// Runs `callback` once `deliveredEver` reaches `target` (at once when it
  /// already has).
  func whenDelivered(atLeast target: UInt64, _ callback: @escaping () -> Void) {
    deliveryWaiter.wait(until: target, delivered: tally.deliveredEver, callback)
  }

  fileprivate func synced() {
    tally.synced += 1
    checkSynced()
  }

  fileprivate func delivered(sentAt: Double, messageBytes: Int) {
    let now = arrivedAt ?? MonotonicNanos.now()
    arrivedAt = now
    tally.deliveredEver += 1
    tally.deliveredBytes += UInt64(messageBytes + 5)
    if window.contains(now) {
      tally.delivered += 1
      let sent = UInt64(max(0, sentAt))
      tally.latency.record(now > sent ? now - sent : 0)
    }
    deliveryWaiter.delivered(tally.deliveredEver)
  }

  fileprivate func ended(_ status: GRPCStatus, wasSynced: Bool) {
    tally.recordFailure(status.description, wasSynced: wasSynced)
    checkSynced()
  }

  private func checkSynced() {
    guard tally.allSynced, let callback = onAllSynced else { return }
    onAllSynced = nil
    callback()
  }
}

/// One Subscribe stream of a `SubscriberGroup`.
private final class Subscriber: ClientCallHandler {
  let group: SubscriberGroup
  var isSynced = false

  init(group: SubscriberGroup) {
    self.group = group
  }

  func received(message: [UInt8]) {
    message.withUnsafeBytes { received(messageBytes: $0) }
  }

  func received(messageBytes bytes: UnsafeRawBufferPointer) {
    let event = WidgetWire.peekWidgetEvent(bytes)
    switch event {
    case .synced:
      if !isSynced {
        isSynced = true
        group.synced()
      }
    case .upsert(_, let value?) where isSynced:
      group.delivered(sentAt: value, messageBytes: bytes.count)
    case .value(_, let value) where isSynced:
      group.delivered(sentAt: value, messageBytes: bytes.count)
    default:
      break
    }
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    group.ended(status, wasSynced: isSynced)
  }
}
