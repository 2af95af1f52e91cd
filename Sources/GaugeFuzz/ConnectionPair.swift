import GRPCClient
import GRPCCore
import GRPCTransport
import GRPCTransportTesting

/// A client connection and a server connection joined in memory, on one
/// manual clock: what an event loop and a socket would do between them,
/// done by hand so that nothing depends on timing.
struct ConnectionPair {
  let server: FuzzedServer
  let scheduler = ManualScheduler()
  let serverConnection: GRPCServerConnection
  let clientConnection: GRPCClientConnection
  /// Bytes the client reads per turn; 0 reads everything. A limit leaves
  /// the rest queued on the server, as a slow reader's socket would.
  var readLimit = 0
  /// When non-nil, every byte the client sent, in order.
  var clientTranscript: [UInt8]?
  /// False once either side gave up and both were closed.
  private(set) var isConnected = true

  /// A connection that never goes quiet is a finding: its pumping would
  /// never end on a real loop either.
  private static let turnsBeforeQuiet = 50_000

  init(configuration: ServerConfiguration, clientWindow: UInt32?, clientCompresses: Bool) {
    server = FuzzedServer()
    serverConnection = GRPCServerConnection(
      router: server.router, configuration: configuration, scheduler: scheduler,
      outputReady: {})
    var clientConfiguration = ClientConfiguration()
    if let clientWindow { clientConfiguration.initialWindowSize = clientWindow }
    if clientCompresses { clientConfiguration.compression = .gzip }
    clientConnection = GRPCClientConnection(
      authority: "fuzz", configuration: clientConfiguration, scheduler: scheduler,
      outputReady: {})
  }

  /// Starts a call. `options`: bit 0 sets a deadline, bits 1 and 2 add text
  /// and binary metadata of up to 64 bytes, each led by its length; their
  /// operands come from `input`.
  mutating func start(path: String, options: UInt8, input: inout FuzzInput) -> RecordedCall {
    let recorded = RecordedCall(path: path)
    var timeout: Duration?
    if options & 0x01 != 0 { timeout = .milliseconds(Int(input.byte() ?? 0) * 10 + 1) }
    var metadata = Metadata()
    if options & 0x02 != 0 {
      metadata.add("x-fuzz", input.headerText(upTo: Int(input.byte() ?? 0) % 65))
    }
    if options & 0x04 != 0 {
      metadata.add("x-fuzz-bin", .binary(input.bytes(upTo: Int(input.byte() ?? 0) % 65)))
    }
    recorded.call = clientConnection.makeCall(
      path: path, metadata: metadata, timeout: timeout, handler: recorded)
    return recorded
  }

  /// Moves bytes both ways until neither side has more to say, or, for a
  /// slow reader, for a few turns.
  mutating func pump() throws(FuzzFinding) {
    guard isConnected else { return scheduler.advance(by: .zero) }
    var turns = 0
    while true {
      // A loop turn runs the timers that are due, those set for "now" too.
      scheduler.advance(by: .zero)
      var toServer: [UInt8] = []
      guard clientConnection.drainOutput(into: &toServer) else {
        throw FuzzFinding("the client session failed while writing")
      }
      clientTranscript?.append(contentsOf: toServer)
      if !toServer.isEmpty, !toServer.withUnsafeBytes({ serverConnection.receive($0) }) {
        // The server gave up on the connection: what it queued (a GOAWAY)
        // still reaches the client, which must be able to read it.
        try deliverToClient(limit: .max)
        return closeBoth()
      }
      let delivered = try deliverToClient(limit: readLimit == 0 ? .max : readLimit)
      if !serverConnection.isAlive { return closeBoth() }
      if toServer.isEmpty, delivered == 0 { return }
      turns += 1
      if readLimit > 0, turns >= 4 { return }
      if turns >= Self.turnsBeforeQuiet {
        throw FuzzFinding("the connection was still talking after \(turns) turns")
      }
    }
  }

  @discardableResult
  private mutating func deliverToClient(limit: Int) throws(FuzzFinding) -> Int {
    var toClient: [UInt8] = []
    guard serverConnection.drainOutput(into: &toClient, limit: limit) else {
      throw FuzzFinding("the server session failed while writing")
    }
    guard !toClient.isEmpty else { return 0 }
    serverConnection.socketFlushed(bytesWritten: toClient.count, backlog: 0)
    guard toClient.withUnsafeBytes({ clientConnection.receive($0) }) else {
      throw FuzzFinding("the client could not read what the server sent")
    }
    return toClient.count
  }

  /// What the socket glue does when the server stops or sees the socket
  /// close: both sides hear the connection is gone.
  private mutating func closeBoth() {
    guard isConnected else { return }
    isConnected = false
    serverConnection.connectionLost()
    clientConnection.connectionLost()
  }

  /// What the server's own life does to a connection: idle trimming,
  /// a graceful stop and the end of its grace period.
  mutating func serverLifecycle(_ choice: UInt8) {
    guard isConnected else { return }
    switch choice % 3 {
    case 0: serverConnection.trimIdleMemory()
    case 1: serverConnection.beginShutdown()
    default: serverConnection.endGracePeriod()
    }
  }
}
