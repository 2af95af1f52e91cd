import GaugeIO
import Glibc

/// The connections scenario's shape against `socket-floor-server`: the same
/// connections, loops and rounds, with one plain message per connection and
/// update instead of gauged's HTTP/2 DATA frame. The latency it reports is
/// the floor that loopback TCP on this machine sets for the scenario.
enum SocketFloorScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure)
    -> JSONLine
  {
    let address = loops.address
    let connectStart = MonotonicNanos.now()
    let receivers = try connect(options, loops: loops)
    let setupSeconds = MonotonicNanos.seconds(MonotonicNanos.now() - connectStart)
    let producer: ConnectedSocket
    do {
      producer = try ConnectedSocket.connect(to: address, timeout: .seconds(10))
    } catch {
      throw BenchFailure("cannot connect to \(address): \(error)")
    }
    try send([SocketFloorProtocol.producer], on: producer)

    var complete = 0
    var meter = CPUMeter(serverPID: options.serverPID)
    meter.start()
    for round in 1...options.rounds {
      try send(withUnsafeBytes(of: MonotonicNanos.now().littleEndian, Array.init), on: producer)
      if DeliveryGroups.awaitDeliveries(
        receivers, perSubscriber: UInt64(round), using: loops, timeout: .seconds(10))
      {
        complete += 1
      }
      usleep(50_000)
    }
    meter.stop()
    let delivery = DeliveryGroups.tally(receivers, using: loops)
    DeliveryGroups.close(receivers, using: loops)
    producer.close()

    var line = JSONLine()
    line.add("scenario", "socket-floor")
    line.add("connections", options.connections)
    line.add("loops", options.loops)
    line.add("message_bytes", options.messageBytes)
    line.add("setup_s", setupSeconds, decimals: 2)
    line.addRounds(
      options.rounds, reachingAll: complete, connections: options.connections,
      delivery: delivery, meter: meter)
    if let failure = delivery.firstFailure { line.add("first_failure", failure) }
    return line
  }

  private static func connect(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure)
    -> [LoopBound<SocketFloorReceivers>]
  {
    let address = loops.address
    let loopCount = loops.loops.count
    let messageBytes = options.messageBytes
    let connected: [Result<LoopBound<SocketFloorReceivers>, BenchFailure>]? =
      loops.runOnEach(timeout: .seconds(120)) { index, loop, done in
        let receivers = SocketFloorReceivers(messageBytes: messageBytes)
        let bound = LoopBound(receivers, on: loop)
        let count = LoadLoops.share(of: options.connections, part: index, of: loopCount)
        receivers.connect(count, to: address, on: loop) { done($0.map { bound }) }
      }
    guard let connected else {
      throw BenchFailure("\(options.connections) connections were not registered within 120 s")
    }
    var receivers: [LoopBound<SocketFloorReceivers>] = []
    for result in connected { receivers.append(try result.get()) }
    return receivers
  }

  private static func send(_ bytes: [UInt8], on socket: ConnectedSocket) throws(BenchFailure) {
    do {
      try SocketFloorProtocol.send(bytes, on: socket)
    } catch {
      throw BenchFailure("writing to the socket floor server: \(error)")
    }
  }
}
