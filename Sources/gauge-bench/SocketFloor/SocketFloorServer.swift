import GaugeIO
import Glibc

/// The server half of the socket floor: event loops like gauged's, which
/// on each producer clock reading write one message, that reading followed
/// by zeros, to every subscriber connection with one `send` each. What it
/// costs is what the kernel charges for delivering an update to many TCP
/// connections, which no HTTP/2 server can go below.
enum SocketFloorServer {
  /// Prints `listening on ADDRESS` and serves until the process is killed.
  static func run(
    listeningOn address: SocketAddress, loops count: Int, messageBytes: Int
  ) throws(IOError) -> Never {
    let group = try EventLoopGroup(threads: count)
    let listener = try ListeningSocket(address: address)
    let fanOut = FloorFanOut(
      loops: group.loops.map { LoopBound(FloorLoop(messageBytes: messageBytes), on: $0) })
    group.start()
    let handover = ListenerHandover(listener)
    let registered = Rendezvous<Result<Void, IOError>>()
    group.loops[0].execute {
      let acceptor = FloorAcceptor(listener: handover.listener, fanOut: fanOut)
      do throws(IOError) {
        try group.loops[0].register(
          fd: acceptor.listener.fd, interest: .readable, handler: acceptor)
        registered.deliver(.success(()))
      } catch {
        registered.deliver(.failure(error))
      }
    }
    try registered.wait(for: 1)![0].get()
    LineConsole.out("listening on \(listener.localAddress)")
    while true { pause() }
  }
}

/// Every loop's share of the subscribers; the producer's reading reaches
/// each loop through `execute`, the hop gauged's hub takes too.
struct FloorFanOut: Sendable {
  let loops: [LoopBound<FloorLoop>]

  func broadcast(stamp: UInt64) {
    for loop in loops {
      loop.execute { $0.broadcast(stamp: stamp) }
    }
  }
}

/// One loop's subscribers and the message buffer it reuses for them.
final class FloorLoop {
  private var subscribers: [ConnectedSocket] = []
  private let message: UnsafeMutableRawBufferPointer
  private var reportedShortWrite = false
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

  init(messageBytes: Int) {
    message = .allocate(byteCount: messageBytes, alignment: 8)
    message.initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit {
    message.deallocate()
    readBuffer.deallocate()
  }

  func add(_ subscriber: ConnectedSocket) {
    subscribers.append(subscriber)
  }

  func remove(_ subscriber: ConnectedSocket) {
    guard let index = subscribers.firstIndex(where: { $0 === subscriber }) else { return }
    subscribers.swapAt(index, subscribers.count - 1)
    subscribers.removeLast()
  }

  func broadcast(stamp: UInt64) {
    message.storeBytes(of: stamp.littleEndian, as: UInt64.self)
    let bytes = UnsafeRawBufferPointer(message)
    for subscriber in subscribers {
      let result = try? subscriber.write(bytes)
      if case .processed(let count) = result, count == bytes.count { continue }
      // A message cut short would leave the client misreading every later
      // one; the client's count then falls short, and this says why.
      if !reportedShortWrite {
        reportedShortWrite = true
        LineConsole.error(
          "gauge-bench socket-floor-server: a subscriber did not take a whole message")
      }
    }
  }
}

/// Accepts on the first loop and spreads connections over all of them.
final class FloorAcceptor: EventLoopHandler {
  let listener: ListeningSocket
  private let fanOut: FloorFanOut
  private var next = 0

  init(listener: ListeningSocket, fanOut: FloorFanOut) {
    self.listener = listener
    self.fanOut = fanOut
  }

  func readable() {
    while case .processed(let socket)? = try? listener.accept() {
      let target = fanOut.loops[next % fanOut.loops.count]
      next += 1
      let handover = SocketHandover(socket)
      let fanOut = self.fanOut
      target.execute { floorLoop in
        let connection = FloorConnection(
          socket: handover.socket, loop: target.loop, floorLoop: floorLoop, fanOut: fanOut)
        do throws(IOError) {
          try target.loop.register(fd: handover.socket.fd, interest: .readable, handler: connection)
        } catch {
          handover.socket.close()
        }
      }
    }
  }

  func writable() {}
  func hangup() {}
}

/// One client connection on its loop: first a role byte, then, from a
/// producer, clock readings.
final class FloorConnection: EventLoopHandler {
  private let socket: ConnectedSocket
  private let loop: EventLoop
  private let floorLoop: FloorLoop
  private let fanOut: FloorFanOut
  private var role: UInt8?
  private var stamp: UInt64 = 0
  private var stampBytesRead = 0

  init(socket: ConnectedSocket, loop: EventLoop, floorLoop: FloorLoop, fanOut: FloorFanOut) {
    self.socket = socket
    self.loop = loop
    self.floorLoop = floorLoop
    self.fanOut = fanOut
  }

  func readable() {
    let buffer = floorLoop.readBuffer
    guard case .processed(let count)? = try? socket.read(into: buffer), count > 0 else {
      return hangup()
    }
    for byte in buffer[..<count] {
      switch role {
      case nil:
        role = byte
        if byte == SocketFloorProtocol.subscriber {
          floorLoop.add(socket)
          // The client's count of registrations then falls short, and says so.
          try? SocketFloorProtocol.send([SocketFloorProtocol.registered], on: socket)
        }
      case SocketFloorProtocol.producer:
        stamp |= UInt64(byte) << (8 * UInt64(stampBytesRead))
        stampBytesRead += 1
        if stampBytesRead == SocketFloorProtocol.stampBytes {
          fanOut.broadcast(stamp: stamp)
          stamp = 0
          stampBytesRead = 0
        }
      default:
        break
      }
    }
  }

  func writable() {}

  func hangup() {
    guard !socket.isClosed else { return }
    floorLoop.remove(socket)
    loop.deregister(fd: socket.fd)
    socket.close()
  }
}

/// Carries a socket from the accepting loop to the one that adopts it.
//
// @unchecked Sendable: the accepting loop drops its reference as soon as it
// has queued the handover, so only the adopting loop ever uses the socket.
final class SocketHandover: @unchecked Sendable {
  let socket: ConnectedSocket

  init(_ socket: ConnectedSocket) {
    self.socket = socket
  }
}

/// Carries the listener from the main thread to the first loop.
//
// @unchecked Sendable: the main thread only reads the listener's immutable
// address after handing it over; accepting happens on the loop alone.
final class ListenerHandover: @unchecked Sendable {
  let listener: ListeningSocket

  init(_ listener: ListeningSocket) {
    self.listener = listener
  }
}
