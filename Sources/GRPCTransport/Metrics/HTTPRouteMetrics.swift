import GaugeMetrics

/// One HTTP face's route on one event loop: requests by status code and
/// how long they took. Loop-bound like `GRPCMethodMetrics`.
public final class HTTPRouteMetrics {
  public let face: String
  public let route: String
  /// Requests by status code: the few codes a route answers with, scanned
  /// rather than hashed on every request.
  private var codes: [(status: Int, count: UInt64)] = []
  private let duration = Histogram(upperBounds: HistogramBuckets.latencySeconds)
  let accessLog: AccessLog?

  init(face: String, route: String, accessLog: AccessLog? = nil) {
    self.face = face
    self.route = route
    self.accessLog = accessLog
  }

  func completed(status: Int, after elapsed: Duration, bytes: Int, peer: String?) {
    if let index = codes.firstIndex(where: { $0.status == status }) {
      codes[index].count &+= 1
    } else {
      codes.append((status, 1))
    }
    duration.observe(elapsed)
    accessLog?.request(
      face: face, route: route, status: status, duration: elapsed, bytes: bytes, peer: peer)
  }

  var snapshot: Snapshot {
    Snapshot(
      face: face, route: route,
      codes: Dictionary(codes.map { ($0.status, $0.count) }, uniquingKeysWith: &+),
      duration: duration.snapshot)
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
