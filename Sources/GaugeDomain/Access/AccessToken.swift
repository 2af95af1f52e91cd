/// A bearer token as the server keeps it: never the secret, only its
/// digest, with what the token may do and when it stops working. Times are
/// Unix milliseconds.
public struct AccessToken: Sendable, Equatable {
  public var name: String
  public var scope: Scope
  public var reach: WidgetReach
  public var digest: TokenDigest
  public var createdMs: Int64
  public var lastUsedMs: Int64?
  /// nil: never expires.
  public var expiresMs: Int64?
  /// Its own write rate limit; nil: the server's.
  public var writeRate: TokenBucket.Rate?

  public init(
    name: String, scope: Scope, reach: WidgetReach = .everything, digest: TokenDigest,
    createdMs: Int64, lastUsedMs: Int64? = nil, expiresMs: Int64? = nil,
    writeRate: TokenBucket.Rate? = nil
  ) {
    self.name = name
    self.scope = scope
    self.reach = reach
    self.digest = digest
    self.createdMs = createdMs
    self.lastUsedMs = lastUsedMs
    self.expiresMs = expiresMs
    self.writeRate = writeRate
  }

  public func hasExpired(atMs now: Int64) -> Bool {
    guard let expiresMs else { return false }
    return now >= expiresMs
  }

  /// The violation in a token's name, if any: 1 to 64 of `A-Z a-z 0-9 . _ -`,
  /// so that it fits a tokens-file line and a command line unquoted.
  public static func nameViolation(_ name: some StringProtocol) -> FieldViolation? {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= 64 else {
      return FieldViolation(field: "name", description: "must be 1 to 64 characters long")
    }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "-"):
        continue
      default:
        return FieldViolation(
          field: "name", description: "may hold only letters, digits, '.', '_' and '-'")
      }
    }
    return nil
  }

  /// The violation in an id prefix, if any: what a widget id may start with.
  public static func prefixViolation(_ prefix: some StringProtocol) -> FieldViolation? {
    guard prefix.utf8.count <= 128 else {
      return FieldViolation(field: "prefix", description: "must be at most 128 bytes long")
    }
    for byte in prefix.utf8 where byte <= 0x20 || byte == 0x7f {
      return FieldViolation(
        field: "prefix", description: "must not hold spaces or control characters")
    }
    return nil
  }
}
