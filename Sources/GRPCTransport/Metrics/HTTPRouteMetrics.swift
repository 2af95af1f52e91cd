import GaugeMetrics

/// One HTTP face's route on one event loop: requests by status code and
/// how long they took. Loop-bound like `GRPCMethodMetrics`.
public final class HTTPRouteMetrics {
  public let face: String
  public let route: String
  private var codes: [Int: UInt64] = [:]
  private let duration = Histogram(upperBounds: HistogramBuckets.latencySeconds)
  let accessLog: AccessLog?

  init(face: String, route: String, accessLog: AccessLog? = nil) {
    self.face = face
    self.route = route
    self.accessLog = accessLog
  }

  func completed(status: Int, after elapsed: Duration, bytes: Int, peer: String?) {
    codes[status, default: 0] &+= 1
    duration.observe(elapsed)
    accessLog?.request(
      face: face, route: route, status: status, duration: elapsed, bytes: bytes, peer: peer)
  }

  var snapshot: Snapshot {
    Snapshot(face: face, route: route, codes: codes, duration: duration.snapshot)
  }

  public struct Snapshot: Sendable {
    public let face: String
    public let route: String
    public var codes: [Int: UInt64]
    public var duration: HistogramSnapshot

    mutating func add(_ other: Snapshot) {
      codes.merge(other.codes, uniquingKeysWith: &+)
      duration.add(other.duration)
    }
  }
}
