/// How much a line matters; `--log-level` keeps those at or above it.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
  case debug
  case info
  case warn
  case error

  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = level
  }

  public var name: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .warn: "warn"
    case .error: "error"
    }
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
