import GaugeIO
import Glibc

/// The client half of the socket floor on one loop: connections that read
/// fixed-size messages and time each from the clock reading it starts with.
final class SocketFloorReceivers: DeliveryGroup {
  let messageBytes: Int
  private(set) var tally = DeliveryTally()
  private var connections: [SocketFloorReceiver] = []
  private var unregistered = 0
  private var onAllRegistered: (() -> Void)?
  private var deliveryWaiter = DeliveryWaiter()
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

  init(messageBytes: Int) {
    self.messageBytes = messageBytes
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Connects `count` connections on `loop` and says what each is for;
  /// `ready` runs once the server has registered every one.
  func connect(
    _ count: Int, to address: SocketAddress, on loop: EventLoop,
    ready: @escaping (Result<Void, BenchFailure>) -> Void
  ) {
    do throws(IOError) {
      for _ in 0..<count {
        let socket = try ConnectedSocket.connect(to: address, timeout: .seconds(10))
        let receiver = SocketFloorReceiver(socket: socket, loop: loop, group: self)
        connections.append(receiver)
        try loop.register(fd: socket.fd, interest: .readable, handler: receiver)
        try SocketFloorProtocol.send([SocketFloorProtocol.subscriber], on: socket)
      }
    } catch {
      return ready(.failure(BenchFailure("cannot connect to \(address): \(error)")))
    }
    tally.subscribers = count
    unregistered = count
    onAllRegistered = { ready(.success(())) }
    checkRegistered()
  }

  func whenDelivered(atLeast target: UInt64, _ callback: @escaping () -> Void) {
    deliveryWaiter.wait(until: target, delivered: tally.deliveredEver, callback)
  }

  func close() {
    connections.forEach { $0.close() }
    connections = []
  }

  fileprivate func registered() {
    unregistered -= 1
    checkRegistered()
  }

  fileprivate func delivered(sentAt: UInt64, arrivedAt: UInt64) {
    tally.deliveredEver += 1
    tally.delivered += 1
    tally.latency.record(arrivedAt > sentAt ? arrivedAt - sentAt : 0)
    deliveryWaiter.delivered(tally.deliveredEver)
  }

  fileprivate func failed(_ reason: String) {
    tally.failed += 1
    if tally.firstFailure == nil { tally.firstFailure = reason }
  }

  private func checkRegistered() {
    guard unregistered <= 0, let callback = onAllRegistered else { return }
    onAllRegistered = nil
    callback()
  }
}

/// One connection of `SocketFloorReceivers`: the server's one-byte answer,
/// then messages whose first 8 bytes are the producer's clock reading.
private final class SocketFloorReceiver: EventLoopHandler {
  private let socket: ConnectedSocket
  private let loop: EventLoop
  private unowned let group: SocketFloorReceivers
  private var isRegistered = false
  /// Where the next byte falls in its message.
  private var offset = 0
  private var stamp: UInt64 = 0

  init(socket: ConnectedSocket, loop: EventLoop, group: SocketFloorReceivers) {
    self.socket = socket
    self.loop = loop
    self.group = group
  }

  func readable() {
    let buffer = group.readBuffer
    guard case .processed(let count)? = try? socket.read(into: buffer), count > 0 else {
      group.failed("the socket floor server closed a connection")
      return close()
    }
    var arrivedAt: UInt64?
    var bytes = buffer[..<count][...]
    if !isRegistered {
      isRegistered = true
      bytes = bytes.dropFirst()
      group.registered()
    }
    let messageBytes = group.messageBytes
    let stampBytes = SocketFloorProtocol.stampBytes
    while !bytes.isEmpty {
      if offset < stampBytes {
        stamp |= UInt64(bytes.first!) << (8 * UInt64(offset))
        bytes = bytes.dropFirst()
        offset += 1
        if offset == stampBytes {
          let now = arrivedAt ?? MonotonicNanos.now()
          arrivedAt = now
          group.delivered(sentAt: stamp, arrivedAt: now)
          stamp = 0
        }
      } else {
        let skipped = min(messageBytes - offset, bytes.count)
        bytes = bytes.dropFirst(skipped)
        offset += skipped
      }
      if offset == messageBytes { offset = 0 }
    }
  }

  func writable() {}

  func hangup() {
    group.failed("the socket floor server closed a connection")
    close()
  }

  func close() {
    guard !socket.isClosed else { return }
    loop.deregister(fd: socket.fd)
    socket.close()
  }
}
