import GaugeAuth
import GaugeDomain
import GaugeStore

/// `gauged token create NAME --scope SCOPE [--prefix P] [--expires D]
/// --data-dir DIR`: bootstraps a token with no server running, so the
/// first admin token needs no unauthenticated server. The secret goes to
/// standard output once; the data directory gets only its SHA-256.
enum TokenCommand {
  static let usage = """
    Usage: gauged token create NAME --scope read|write|admin [--prefix PREFIX]
                               [--expires DURATION] [--rate N/s] [--burst N]
                               --data-dir DIR

    Makes a bearer token in DIR (no gauged may be running on it) and prints its
    secret, which is shown only this once. DURATION: 30d, 12h, 90m. --rate and
    --burst give the token a write rate limit of its own.
    """

  /// The exit status and what to print: the secret on success.
  static func run(_ arguments: [String], nowMs: Int64) -> (code: Int32, out: String?, err: String?)
  {
    var rest = arguments[...]
    guard rest.popFirst() == "create", let name = rest.popFirst(), !name.hasPrefix("-") else {
      return (2, nil, usage)
    }
    if let violation = AccessToken.nameViolation(name) {
      return (2, nil, "gauged token: NAME \(violation.description)")
    }
    var scope: Scope?
    var reach = WidgetReach.everything
    var expiresMs: Int64?
    var dataDirectory: String?
    var rate: UInt32 = 0
    var burst: UInt32 = 0
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else {
        return (2, nil, "gauged token: \(flag) needs a value")
      }
      switch flag {
      case "--scope":
        guard let parsed = Scope(name: value) else {
          return (2, nil, "gauged token: --scope: \"\(value)\" is not read, write or admin")
        }
        scope = parsed
      case "--prefix":
        if let violation = AccessToken.prefixViolation(value) {
          return (2, nil, "gauged token: --prefix \(violation.description)")
        }
        reach = WidgetReach(prefix: value)
      case "--expires":
        guard let milliseconds = DurationText.milliseconds(value), milliseconds > 0 else {
          return (2, nil, "gauged token: --expires: \"\(value)\" is not a duration like 30d")
        }
        expiresMs = nowMs + milliseconds
      case "--rate":
        let digits = value.hasSuffix("/s") ? String(value.dropLast(2)) : value
        guard let number = UInt32(digits), number > 0 else {
          return (2, nil, "gauged token: --rate: \"\(value)\" is not writes per second like 100/s")
        }
        rate = number
      case "--burst":
        guard let number = UInt32(value), number > 0 else {
          return (2, nil, "gauged token: --burst: \"\(value)\" is not a whole number above 0")
        }
        burst = number
      case "--data-dir":
        dataDirectory = value
      default:
        return (2, nil, "gauged token: unknown option \(flag)\n\n\(usage)")
      }
    }
    guard let scope else { return (2, nil, "gauged token: --scope is required\n\n\(usage)") }
    guard let dataDirectory else {
      return (2, nil, "gauged token: --data-dir is required\n\n\(usage)")
    }
    let secret: String
    do {
      secret = try TokenSecret.generate()
    } catch {
      return (1, nil, "gauged token: libcrypto could not make random bytes")
    }
    let token = AccessToken(
      name: name, scope: scope, reach: reach, digest: .sha256(of: secret), createdMs: nowMs,
      expiresMs: expiresMs,
      writeRate: rate > 0
        ? TokenBucket.Rate(
          perSecond: Double(rate), burst: burst > 0 ? Double(burst) : 2 * Double(rate))
        : nil)
    do {
      try OfflineTokens.create(token, dataDirectory: dataDirectory)
    } catch {
      return (1, nil, "gauged token: \(error)")
    }
    return (0, secret, nil)
  }
}
