/// The readiness an event loop should report for a descriptor.
public struct Interest: OptionSet, Sendable, Hashable {
  public var rawValue: UInt8

  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  public static let readable = Interest(rawValue: 1 << 0)
  public static let writable = Interest(rawValue: 1 << 1)
}
