import GaugeLog

extension GRPCServerConnection {
  /// One log line for a connection the server ends because of its peer
  /// (too many pings, a stalled reader, a full buffer, a flood, a broken
  /// rule): `reason` is what the GOAWAY says, never anything the peer sent.
  /// Once per connection: the session's failure that follows a refusal
  /// decided here names the same reason.
  func logRefusal(_ reason: String) {
    guard !refusalLogged else { return }
    refusalLogged = true
    group.configuration.log.warn(
      "connection_refused", "ended a connection: \(reason)", [LogField("reason", reason)])
  }
}
