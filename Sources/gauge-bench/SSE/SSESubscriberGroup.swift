import GaugeIO
import Glibc

/// The event-stream connections of one loop (`GET /widgets/events` over
/// HTTP/1.1, one subscriber each), watching widgets whose value is a
/// sender's monotonic clock reading: counts the upserts that arrive after
/// `synced` and how late each is, as `SubscriberGroup` does for Subscribe
/// streams. Lives on one loop.
final class SSESubscriberGroup: DeliveryGroup {
  let window: MeasureWindow
  private(set) var tally = DeliveryTally()
  private var subscribers: [SSESubscriber] = []
  private var onAllSynced: (() -> Void)?
  private var deliveryWaiter = DeliveryWaiter()
  /// Shared by the loop's connections: each read is handled before the next.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)

  init(window: MeasureWindow) {
    self.window = window
  }

  deinit {
    readBuffer.deallocate()
  }

  /// The request line and fields every subscriber sends.
  static func request(ids: [String]) -> [UInt8] {
    Array(
      ("GET /widgets/events?ids=\(ids.joined(separator: ",")) HTTP/1.1\r\n"
        + "host: gauged\r\naccept: text/event-stream\r\n\r\n").utf8)
  }

  /// Connects `count` connections on `loop` and asks each for the events
  /// of `ids`; `synced` runs once every stream that has not failed has had
  /// its `synced` event.
  func open(
    _ count: Int, to address: SocketAddress, ids: [String], on loop: EventLoop,
    synced: @escaping (Result<Void, BenchFailure>) -> Void
  ) {
    let request = Self.request(ids: ids)
    do throws(IOError) {
      for _ in 0..<count {
        let socket = try ConnectedSocket.connect(to: address, timeout: .seconds(10))
        let subscriber = SSESubscriber(socket: socket, loop: loop, group: self)
        subscribers.append(subscriber)
        try loop.register(fd: socket.fd, interest: .readable, handler: subscriber)
        let written = try request.withUnsafeBytes { bytes in
          Result { () throws(IOError) in try socket.write(bytes) }
        }.get()
        // An empty send buffer takes a request this small whole.
        guard case .processed(request.count) = written else {
          throw IOError(call: "send", errno: EAGAIN)
        }
        tally.subscribers += 1
      }
    } catch {
      return synced(.failure(BenchFailure("cannot open an event stream at \(address): \(error)")))
    }
    onAllSynced = { synced(.success(())) }
    checkSynced()
  }

  func whenDelivered(atLeast target: UInt64, _ callback: @escaping () -> Void) {
    deliveryWaiter.wait(until: target, delivered: tally.deliveredEver, callback)
  }

  /// Closes every connection without counting the streams it ends as failures.
  func close() {
    subscribers.forEach { $0.close() }
    subscribers = []
  }

  fileprivate func synced() {
    tally.synced += 1
    checkSynced()
  }

  fileprivate func delivered(sentAt: Double, arrivedAt: UInt64) {
    tally.deliveredEver += 1
    if window.contains(arrivedAt) {
      tally.delivered += 1
      let sent = UInt64(max(0, sentAt))
      tally.latency.record(arrivedAt > sent ? arrivedAt - sent : 0)
    }
    deliveryWaiter.delivered(tally.deliveredEver)
  }

  fileprivate func failed(_ reason: String, wasSynced: Bool) {
    tally.recordFailure(reason, wasSynced: wasSynced)
    checkSynced()
  }

  private func checkSynced() {
    guard tally.allSynced, let callback = onAllSynced else { return }
    onAllSynced = nil
    callback()
  }
}

/// One event-stream connection of an `SSESubscriberGroup`.
private final class SSESubscriber: EventLoopHandler {
  private let socket: ConnectedSocket
  private let loop: EventLoop
  private unowned let group: SSESubscriberGroup
  private var reader = EventStreamReader()
  private var isSynced = false

  init(socket: ConnectedSocket, loop: EventLoop, group: SSESubscriberGroup) {
    self.socket = socket
    self.loop = loop
    self.group = group
  }

  func readable() {
    let buffer = group.readBuffer
    let count: Int
    switch Result(catching: { () throws(IOError) in try socket.read(into: buffer) }) {
    case .success(.wouldBlock): return
    case .success(.processed(let read)) where read > 0: count = read
    case .success: return fail("gauged closed an event stream")
    case .failure(let error): return fail("reading an event stream: \(error)")
    }
    // The clock is read once per read, for the first event in it.
    var arrivedAt: UInt64?
    reader.read(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { event in
      if event.isNamed("upsert") {
        guard isSynced, let value = WidgetJSONValue.value(in: event.data) else { return }
        let now = arrivedAt ?? MonotonicNanos.now()
        arrivedAt = now
        group.delivered(sentAt: value, arrivedAt: now)
      } else if event.isNamed("synced"), !isSynced {
        isSynced = true
        group.synced()
      }
    }
    if let failure = reader.failure { fail(failure) }
  }

  func writable() {}

  func hangup() {
    fail("gauged closed an event stream")
  }

  private func fail(_ reason: String) {
    guard !socket.isClosed else { return }
    close()
    group.failed(reason, wasSynced: isSynced)
  }

  func close() {
    guard !socket.isClosed else { return }
    loop.deregister(fd: socket.fd)
    socket.close()
  }
}
