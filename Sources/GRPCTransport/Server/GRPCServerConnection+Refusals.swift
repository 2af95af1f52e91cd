import GaugeLog

extension GRPCServerConnection {
  /// One log line for a connection the server ends because of its peer
  /// (too many pings, a stalled reader, a full buffer): `reason` is what
  /// the GOAWAY says, never anything the peer sent.
  func logRefusal(_ reason: String) {
    group.configuration.log.warn(
      "connection_refused", "ended a connection: \(reason)", [LogField("reason", reason)])
  }
}
