import GRPCClient
import GRPCCore
import GRPCTransport
import GRPCTransportTesting

/// Runs an input as a program of gRPC calls from a well-behaved client (the
/// project's own client connection) against every service gauged serves,
/// with the two connections wired together in memory. The fuzzer chooses
/// the calls, their messages, the order of sends, half-closes and cancels,
/// the passing of time, how fast the client reads and whether it
/// compresses (gzip both ways, when the server's configuration does too).
///
/// Beyond crashes, a run fails when:
/// - the client cannot parse what the server sent;
/// - a call finishes twice, or gets a message after it finished;
/// - a call that is not open-ended is still running once every call has
///   half-closed and every Subscribe and Watch was cancelled, or the
///   server still holds streams then;
/// - a call fails with no message saying why;
/// - a response does not decode as its type, or a subscriber sees a widget
///   go back to an older revision;
/// - a subscriber still live at the end, in sync, does not hold what the
///   store holds for its filter;
/// - the store holds a widget that validation would refuse.
public enum CallsHarness {
  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    var unrecorded: [UInt8]? = nil
    try run(data, recordingClientBytes: &unrecorded)
  }

  /// With `clientBytes` non-nil, everything the client sent is appended to
  /// it: seeds for `FramesHarness`. Returns the calls as the client saw them.
  @discardableResult
  static func run(_ data: [UInt8], recordingClientBytes clientBytes: inout [UInt8]?)
    throws(FuzzFinding) -> [RecordedCall]
  {
    var input = FuzzInput(data)
    let configuration = FuzzedServer.configuration(from: input.byte() ?? 0)
    let clientFlags = input.byte() ?? 0
    var pair = ConnectionPair(
      configuration: configuration, clientWindow: clientFlags & 0x01 != 0 ? 256 : nil,
      clientCompresses: clientFlags & 0x02 != 0)
    if clientBytes != nil { pair.clientTranscript = [] }
    var calls: [RecordedCall] = []

    while let operation = input.byte() {
      switch CallProgram.Operation(reading: operation) {
      case .start:
        guard let methodByte = input.byte(), let options = input.byte() else { break }
        let path = pair.server.paths[Int(methodByte) % pair.server.paths.count]
        calls.append(pair.start(path: path, options: options, input: &input))
      case .send:
        guard let call = pick(calls, &input) else { break }
        let length = Int(input.uint16() ?? 0) % 4_097
        call.send(input.bytes(upTo: length))
      case .closeSend:
        pick(calls, &input)?.call?.closeSend()
      case .cancel:
        pick(calls, &input)?.call?.cancel()
      case .sendOversized:
        // Up to 1 MiB of one byte: past the tight message limit and the
        // stream windows. (Past the default 4 MiB limit would make every
        // run that reaches this slow for no new path.)
        guard let call = pick(calls, &input), let size = input.byte(), let fill = input.byte()
        else { break }
        call.send([UInt8](repeating: fill, count: Int(size) * 4_096))
      case .advanceClock:
        pair.scheduler.advance(by: .milliseconds(Int(input.byte() ?? 0) * 40))
      case .readLimit:
        pair.readLimit = Int(input.uint16() ?? 0)
      case .pump:
        try pair.pump()
      case .serverLifecycle:
        pair.serverLifecycle(input.byte() ?? 0)
      }
    }
    try finish(calls, on: &pair)
    clientBytes?.append(contentsOf: pair.clientTranscript ?? [])
    return calls
  }

  private static func pick(_ calls: [RecordedCall], _ input: inout FuzzInput) -> RecordedCall? {
    guard !calls.isEmpty, let index = input.byte() else { return nil }
    return calls[Int(index) % calls.count]
  }

  /// Ends every call the way a client would, then checks what is left.
  private static func finish(_ calls: [RecordedCall], on pair: inout ConnectionPair)
    throws(FuzzFinding)
  {
    pair.readLimit = 0
    try pair.pump()
    // Long enough for a throttled subscriber's held-back change to go out
    // (min_interval_ms up to a second), in steps, as loop turns would.
    for _ in 0..<11 {
      pair.scheduler.advance(by: .milliseconds(100))
      try pair.pump()
    }
    if pair.isConnected {
      for call in calls { try SubscriptionCheck.verify(call, store: pair.server.store) }
    }
    for call in calls where call.isOpenEnded { call.call?.cancel() }
    for call in calls { call.call?.closeSend() }
    try pair.pump()

    for call in calls {
      if let breach = call.breaches.first { throw FuzzFinding(breach) }
      guard let status = call.status else {
        throw FuzzFinding(
          "\(call.path) never finished, though its client half-closed and every open-ended call"
            + " was cancelled")
      }
      if status.code != .ok, status.message.isEmpty {
        throw FuzzFinding("\(call.path) failed with \(status.code) and no message")
      }
      try ResponseCheck.verify(call)
    }
    if pair.isConnected, pair.serverConnection.openStreamCount != 0 {
      throw FuzzFinding(
        "the server holds \(pair.serverConnection.openStreamCount) stream(s) after every call"
          + " ended")
    }
    try StoreCheck.verify(pair.server.store)
  }
}
