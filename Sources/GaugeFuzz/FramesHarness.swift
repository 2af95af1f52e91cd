import GRPCTransport
import GRPCTransportTesting

/// Runs an input as raw HTTP/2 bytes from a client that may do anything:
/// after the connection preface, the fuzzer's bytes go to a server
/// connection serving what gauged serves, in pieces whose sizes the input
/// also picks. The server may refuse whatever it likes, but it must not
/// crash, leak, or keep producing output forever.
public enum FramesHarness {
  static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
  /// An empty SETTINGS frame.
  static let settings: [UInt8] = [0, 0, 0, 0x4, 0, 0, 0, 0, 0]

  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    var input = FuzzInput(data)
    let configuration = FuzzedServer.configuration(from: input.byte() ?? 0)
    let piece = Int(input.byte() ?? 0) + 1
    let server = FuzzedServer()
    let scheduler = ManualScheduler()
    let connection = GRPCServerConnection(
      router: server.router, configuration: configuration, scheduler: scheduler,
      outputReady: {})
    var output: [UInt8] = []
    var alive = (preface + settings).withUnsafeBytes { connection.receive($0) }
    while alive, !input.isExhausted {
      let bytes = input.bytes(upTo: piece)
      alive = bytes.withUnsafeBytes { connection.receive($0) }
      output.removeAll(keepingCapacity: true)
      _ = connection.drainOutput(into: &output)
    }
    // Every timer (deadlines, idle and stall clocks, shutdown waits) fires.
    for _ in 0..<3 {
      scheduler.advance(by: .seconds(400))
      output.removeAll(keepingCapacity: true)
      _ = connection.drainOutput(into: &output)
    }
    connection.connectionLost()
    try StoreCheck.verify(server.store)
  }
}
