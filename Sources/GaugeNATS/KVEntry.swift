/// A key's current value and the revision (the bucket stream's sequence
/// number) that wrote it.
public struct KVEntry: Sendable, Equatable {
  public var key: String
  public var value: [UInt8]
  public var revision: UInt64

  public init(key: String, value: [UInt8], revision: UInt64) {
    self.key = key
    self.value = value
    self.revision = revision
  }
}

/// One change to a key, as a watch delivers it.
public struct KVChange: Sendable, Equatable {
  public enum Operation: Sendable, Equatable {
    case put([UInt8])
    /// A delete marker: the key is gone.
    case delete
    /// A purge marker: the key is gone, and so is its history.
    case purge
  }

  public var key: String
  public var operation: Operation
  public var revision: UInt64

  public init(key: String, operation: Operation, revision: UInt64) {
    self.key = key
    self.operation = operation
    self.revision = revision
  }
}

/// The outcome of a conditional write: either it was written, or the key's
/// last revision was not the one expected (another writer got there first).
public enum KVWriteResult: Sendable, Equatable {
  case written(revision: UInt64)
  /// Compare-and-set failed: re-read, merge, try again.
  case conflict
}
