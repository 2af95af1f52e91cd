/// Writes inputs for `CallsHarness` operation by operation: the seeds, and
/// tests that spell out a program instead of hand-counting bytes.
public struct CallProgram {
  public private(set) var bytes: [UInt8]
  /// The same for every program: read once.
  private static let paths = FuzzedServer().paths
  private var callCount = 0

  /// The operations `CallsHarness.run` reads, one byte each, modulo 12.
  enum Operation: UInt8 {
    case start = 0
    case send = 2
    case closeSend = 4
    case cancel = 5
    case sendOversized = 6
    case advanceClock = 7
    case readLimit = 8
    case pump = 9
    case serverLifecycle = 10

    /// Every byte is an operation: 1, 3 and 11 are second names for
    /// start, send and pump, so that the common steps come up more often.
    init(reading byte: UInt8) {
      switch byte % 12 {
      case 1: self = .start
      case 3: self = .send
      case 11: self = .pump
      case let number: self = Operation(rawValue: number)!
      }
    }
  }

  /// `serverFlags`: see `FuzzedServer.configuration(from:)`; `clientFlags`
  /// bit 0 gives the client a 256-byte stream window, bit 1 has it
  /// compress with gzip (and accept gzip responses).
  public init(serverFlags: UInt8 = 0, clientFlags: UInt8 = 0) {
    bytes = [serverFlags, clientFlags]
  }

  /// Starts a call on `path` (one gauged serves, or an unknown one) and
  /// returns its number for the operations below.
  @discardableResult
  public mutating func start(_ path: String, deadlineTicks: UInt8? = nil, metadata: String? = nil)
    -> Int
  {
    let method = Self.paths.firstIndex(of: path) ?? Self.paths.count - 1
    var options: UInt8 = 0
    if deadlineTicks != nil { options |= 0x01 }
    if metadata != nil { options |= 0x02 }
    bytes += [Operation.start.rawValue, UInt8(method), options]
    if let deadlineTicks { bytes.append(deadlineTicks) }
    if let metadata {
      // The harness maps each byte onto printable ASCII from 0x20.
      let text = Array(metadata.utf8.prefix(64)).map { ($0 &- 0x20) % 0x5F }
      bytes += [UInt8(text.count)] + text
    }
    callCount += 1
    return callCount - 1
  }

  /// A whole call from the client's side: started, one message, half-closed.
  @discardableResult
  public mutating func call(_ path: String, sending message: [UInt8], deadlineTicks: UInt8? = nil)
    -> Int
  {
    let call = start(path, deadlineTicks: deadlineTicks)
    send(message, on: call)
    closeSend(call)
    return call
  }

  public mutating func send(_ message: [UInt8], on call: Int) {
    precondition(message.count <= 4_096, "the harness reads at most 4,096 bytes per message")
    let length = UInt16(message.count)
    bytes += [Operation.send.rawValue, UInt8(call), UInt8(length & 0xFF), UInt8(length >> 8)]
    bytes += message
  }

  /// `units` × 4 KiB of one byte.
  public mutating func sendOversized(units: UInt8, on call: Int) {
    bytes += [Operation.sendOversized.rawValue, UInt8(call), units, 0x41]
  }

  public mutating func closeSend(_ call: Int) {
    bytes += [Operation.closeSend.rawValue, UInt8(call)]
  }

  public mutating func cancel(_ call: Int) {
    bytes += [Operation.cancel.rawValue, UInt8(call)]
  }

  /// Moves the clock by `ticks` × 40 ms.
  public mutating func advanceClock(ticks: UInt8) {
    bytes += [Operation.advanceClock.rawValue, ticks]
  }

  /// The client reads at most `bytes` per turn from now on; 0 reads all.
  public mutating func readLimit(_ limit: UInt16) {
    bytes += [Operation.readLimit.rawValue, UInt8(limit & 0xFF), UInt8(limit >> 8)]
  }

  public mutating func pump() {
    bytes.append(Operation.pump.rawValue)
  }

  /// 0: trim idle memory, 1: begin a graceful stop, 2: end its grace period.
  public mutating func serverLifecycle(_ step: UInt8) {
    bytes += [Operation.serverLifecycle.rawValue, step]
  }
}
