import GaugeIO
import GaugeLog
import GaugeNATS

/// Opening `--nats`'s bucket at start: retried with back-off while NATS
/// cannot be reached or JetStream is not ready (gauged may start before
/// its NATS servers, or before a new cluster has placed its peers, which
/// libnats reports only as a failure), given up on a refusal that waiting
/// would not change (credentials, a bad setting).
enum SharedBucketOpening {
  enum Outcome {
    case opened(NATSKeyValueBucket)
    case failed(NATSError)
    /// A stop signal came while waiting for NATS.
    case stopped(Int32)
  }

  static func open(_ options: NATSOptions, log: EventLog, stopSignals: StopSignals) -> Outcome {
    var pause = Duration.milliseconds(250)
    while true {
      do throws(NATSError) {
        return .opened(try NATSKeyValueBucket(options: options.connection, bucket: options.bucket))
      } catch {
        if error.kind == .notPermitted || error.kind == .invalid { return .failed(error) }
        log.warn(
          "nats_unavailable",
          "gauged: NATS (\(options.connection.servers.joined(separator: ","))) is not available"
            + " yet, trying again in \(DurationText.format(pause)): \(error)",
          [LogField("error", error.description)])
        if let signal = stopSignals.wait(atMost: pause) { return .stopped(signal) }
        pause = min(pause * 2, .seconds(5))
      }
    }
  }

  /// What gauged says about the bucket it serves from.
  static func describe(_ bucket: NATSKeyValueBucket, servers: [String]) -> String {
    let settings = bucket.settings
    let found: String
    switch bucket.opening {
    case .created:
      found = "created with \(replicas(settings.replicas))"
    case .existing:
      found = "existing, \(replicas(settings.replicas))"
    case .existingWithOtherSettings:
      found =
        "existing with other settings than asked for (\(replicas(settings.replicas)),"
        + " history \(settings.history)), used as it is"
    }
    return "NATS bucket \(settings.name) on \(servers.joined(separator: ",")), \(found)"
  }

  private static func replicas(_ count: Int) -> String {
    "\(count) replica\(count == 1 ? "" : "s")"
  }
}
