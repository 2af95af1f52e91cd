/// The settings gauged asks of its bucket.
public struct KVBucketSettings: Sendable, Equatable {
  /// The bucket's name (its stream is `KV_<name>`).
  public var name: String
  /// How many servers hold each value (1, 3 or 5).
  public var replicas: Int
  /// How many revisions of each key the bucket keeps (1 to 64).
  public var history: Int

  public init(name: String, replicas: Int = 1, history: Int = 1) {
    self.name = name
    self.replicas = replicas
    self.history = history
  }
}

/// What opening the bucket found, so gauged can say when an existing
/// bucket's settings differ from the ones it was given.
public enum KVBucketOpening: Sendable, Equatable {
  /// There was no such bucket; it now exists with the settings asked for.
  case created
  /// The bucket existed with the settings asked for.
  case existing
  /// The bucket existed with other settings; it is used as it is.
  case existingWithOtherSettings(KVBucketSettings)
}
