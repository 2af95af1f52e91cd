import GRPCCore
import GaugeMetrics

/// One method's gRPC counters on one event loop. Plain stored properties,
/// no atomics: only the loop's thread touches them, and a scrape reads
/// them by hopping to that thread (`ServerMetrics.collect`). A call holds
/// its method's instance and counts without a lookup.
public final class GRPCMethodMetrics {
  public let service: String
  public let method: String
  public let type: GRPCCallType
  var started: UInt64 = 0
  var received: UInt64 = 0
  var sent: UInt64 = 0
  /// Indexed by the status code's raw value.
  private var handled = [UInt64](repeating: 0, count: GRPCStatus.Code.allCases.count)
  private let handling = Histogram(upperBounds: HistogramBuckets.latencySeconds)
  /// With `--access-log`: where native gRPC calls of this method are logged.
  let accessLog: AccessLog?
  /// The loop's counters these belong to, for what calls count elsewhere
  /// (a subscription). Unowned: the loop's metrics own this.
  unowned let loop: LoopMetrics

  init(
    service: String, method: String, type: GRPCCallType, accessLog: AccessLog? = nil,
    loop: LoopMetrics
  ) {
    self.loop = loop
    self.service = service
    self.method = method
    self.type = type
    self.accessLog = accessLog
  }

  func handled(_ code: GRPCStatus.Code, nanoseconds: UInt64) {
    handled[Int(code.rawValue)] &+= 1
    handling.observe(nanoseconds: nanoseconds)
  }

  var snapshot: Snapshot {
    Snapshot(
      service: service, method: method, type: type, started: started, received: received,
      sent: sent, handled: handled, handling: handling.snapshot)
  }

  /// What a scrape takes from one loop, to be added to the other loops'.
  public struct Snapshot: Sendable {
    public let service: String
    public let method: String
    public let type: GRPCCallType
    public var started: UInt64
    public var received: UInt64
    public var sent: UInt64
    public var handled: [UInt64]
    public var handling: HistogramSnapshot

    mutating func add(_ other: Snapshot) {
      started &+= other.started
      received &+= other.received
      sent &+= other.sent
      for index in handled.indices { handled[index] &+= other.handled[index] }
      handling.add(other.handling)
    }
  }
}
