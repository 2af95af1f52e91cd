import GRPCCore
import GaugeLog

/// `--access-log`: one line per call or request, for a sampled fraction of
/// them. What a line holds is chosen here and nowhere else: the face, the
/// method or route, the status, the time taken and, for HTTP, the bytes
/// of the answer. Never a header, metadata or a body, where tokens travel.
public struct AccessLog: Sendable {
  private let log: EventLog
  /// The share of calls and requests logged, in (0, 1].
  private let sample: Double

  public init(log: EventLog, sample: Double) {
    precondition(sample > 0 && sample <= 1)
    // Its own level: the access log is switched on by its own flag.
    self.log = EventLog(format: log.format, level: .debug, sink: log.sinkFunction)
    self.sample = sample
  }

  private var sampled: Bool {
    sample >= 1 || Double.random(in: 0..<1) < sample
  }

  func call(
    service: String, method: String, type: GRPCCallType, code: GRPCStatus.Code,
    duration: Duration, peer: String?
  ) {
    guard sampled else { return }
    log.info(
      "access", "grpc /\(service)/\(method) \(code.goName)",
      [
        LogField("face", "grpc"), LogField("method", "/\(service)/\(method)"),
        LogField("grpc_type", type.rawValue), LogField("status", code.goName),
        LogField("duration_ms", (duration.seconds * 1e6).rounded() / 1000),
        LogField("peer", peer ?? ""),
      ])
  }

  func request(
    face: String, route: String, status: Int, duration: Duration, bytes: Int, peer: String?
  ) {
    guard sampled else { return }
    log.info(
      "access", "\(face) \(route) \(status)",
      [
        LogField("face", face), LogField("route", route), LogField("status", status),
        LogField("duration_ms", (duration.seconds * 1e6).rounded() / 1000),
        LogField("bytes", bytes), LogField("peer", peer ?? ""),
      ])
  }
}
