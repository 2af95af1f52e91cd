/// What a token may do. Each scope implies the ones below it: `admin`
/// manages tokens and may write, `write` changes widgets and may read.
public enum Scope: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
  case read = 1
  case write = 2
  case admin = 3

  /// The scope named exactly `name` (`read`, `write`, `admin`).
  public init?(name: some StringProtocol) {
    switch name {
    case "read": self = .read
    case "write": self = .write
    case "admin": self = .admin
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .read: "read"
    case .write: "write"
    case .admin: "admin"
    }
  }

  /// True when a holder of this scope may do what `needed` allows.
  public func covers(_ needed: Scope) -> Bool { self >= needed }

  public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }
}
