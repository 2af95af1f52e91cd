/// Where the connection to NATS stands, as libnats reports it.
public enum NATSConnectionState: Sendable, Equatable {
  case connected
  /// The connection was lost; libnats is trying the servers again. Writes
  /// fail as unavailable meanwhile.
  case disconnected
  /// The connection is back, perhaps to another server of the cluster.
  case reconnected
  /// The connection was closed, by `close()` or for good; nothing works now.
  case closed
}
