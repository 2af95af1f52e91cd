/// When PublishValues' values count as durable, as `--durability` says.
public enum ValueAcknowledgement: Sendable {
  /// Once JetStream has stored a put holding the value (or a later one).
  case onceStored
  /// Once accepted; a put follows within the flush interval, and a crash
  /// loses what was not yet stored.
  case onAcceptance
}
