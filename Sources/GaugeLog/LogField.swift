/// One named value of a log line. Only what a call site names goes out:
/// no header, metadata or body is ever logged whole, so no token can leak
/// through a line.
public struct LogField: Sendable {
  public enum Value: Sendable {
    case text(String)
    case integer(Int64)
    case number(Double)
    case flag(Bool)
  }

  public let key: String
  public let value: Value

  public init(_ key: String, _ text: String) {
    self.key = key
    self.value = .text(text)
  }

  public init(_ key: String, _ integer: Int) {
    self.key = key
    self.value = .integer(Int64(integer))
  }

  public init(_ key: String, _ number: Double) {
    self.key = key
    self.value = .number(number)
  }

  public init(_ key: String, _ flag: Bool) {
    self.key = key
    self.value = .flag(flag)
  }
}
