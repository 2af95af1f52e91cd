import GaugeDomain
import GaugeJSON
import GaugeWire

/// `gaugectl token create|ls|revoke`: gauge.v1.TokenService, which needs an
/// admin token (`--token` or `GAUGED_TOKEN`).
enum TokenCommand: Command {
  static let name = "token"
  static let summary = "make, list and revoke bearer tokens (admin)"
  static let help = """
    Usage: gaugectl token create NAME --scope read|write|admin [--prefix P] [--expires D]
                                 [--rate N/s] [--burst N]
           gaugectl token ls
           gaugectl token revoke NAME

    Managing tokens needs an admin token (--token, or $GAUGED_TOKEN). create
    prints the new token's secret, shown only this once; --prefix limits it to
    widget ids starting with P; --expires ends it after D (30d, 12h, 90m);
    --rate and --burst give it a write rate limit of its own.
    revoke ends the token's live subscriptions too.

    Options:
      --json                 the token (and secret) or the list as JSON
    """
  static let flags: [FlagSpec] = [
    FlagSpec("scope"), FlagSpec("prefix"), FlagSpec("expires"), FlagSpec("rate"),
    FlagSpec("burst"),
  ]

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    guard let action = arguments.positionals.first else {
      throw .usage("token needs create, ls or revoke")
    }
    let rest = Array(arguments.positionals.dropFirst())
    switch action {
    case "create":
      guard rest.count == 1 else { throw .usage("token create needs NAME (and nothing else)") }
      return try create(name: rest[0], arguments, options)
    case "ls":
      guard rest.isEmpty else { throw .usage("token ls takes no arguments") }
      return try list(options)
    case "revoke":
      guard rest.count == 1 else { throw .usage("token revoke needs NAME (and nothing else)") }
      try WidgetClient(options).revokeToken(name: rest[0])
      if options.json {
        Console.out(JSONWriter.pretty(.object([("revoked", .string(rest[0]))])) + "\n")
      } else {
        Console.out("revoked \(rest[0])\n")
      }
      return .ok
    default:
      throw .usage("token \(action): the actions are create, ls and revoke")
    }
  }

  private static func create(name: String, _ arguments: Arguments, _ options: GlobalOptions)
    throws(CLIError) -> ExitCode
  {
    guard let scopeText = arguments.value("scope") else {
      throw .usage("token create needs --scope read, write or admin")
    }
    guard let scope = Scope(name: scopeText) else {
      throw .usage("--scope: \"\(scopeText)\" is not read, write or admin")
    }
    var expiresInMs: Int64?
    if let text = arguments.value("expires") {
      guard let duration = DurationText.parse(text) else {
        throw .usage("--expires: \"\(text)\" is not a duration like 30d, 12h or 90m")
      }
      expiresInMs = Int64(duration / .milliseconds(1))
    }
    var rate: UInt32?
    if let text = arguments.value("rate") {
      let digits = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
      guard let number = UInt32(digits), number > 0 else {
        throw .usage("--rate: \"\(text)\" is not a number of writes per second like 100/s")
      }
      rate = number
    }
    var burst: UInt32?
    if let text = arguments.value("burst") {
      guard let number = UInt32(text), number > 0 else {
        throw .usage("--burst: \"\(text)\" is not a whole number above 0")
      }
      burst = number
    }
    let (token, secret) = try WidgetClient(options).createToken(
      name: name, scope: scope, prefix: arguments.value("prefix") ?? "",
      expiresInMs: expiresInMs, writeRatePerSecond: rate, writeBurst: burst)
    if options.json {
      Console.out(
        JSONWriter.pretty(.object(members(token) + [("secret", .string(secret))])) + "\n")
    } else {
      Console.out(secret + "\n")
    }
    return .ok
  }

  private static func list(_ options: GlobalOptions) throws(CLIError) -> ExitCode {
    let tokens = try WidgetClient(options).listTokens()
    if options.json {
      Console.out(JSONWriter.pretty(.array(tokens.map(json))) + "\n")
      return .ok
    }
    for token in tokens {
      var line = "\(token.name)  \(token.scope?.description ?? "?")"
      if !token.prefix.isEmpty { line += "  prefix \(token.prefix)" }
      line += "  created \(Timestamp.utc(ms: token.createdMs))"
      if let used = token.lastUsedMs { line += "  used \(Timestamp.utc(ms: used))" }
      if let expires = token.expiresMs { line += "  expires \(Timestamp.utc(ms: expires))" }
      if let rate = token.writeRatePerSecond {
        line += "  writes \(rate)/s burst \(token.writeBurst.map(String.init) ?? "?")"
      }
      Console.out(line + "\n")
    }
    return .ok
  }

  private static func json(_ token: TokenWire.Listed) -> JSONValue {
    .object(members(token))
  }

  private static func members(_ token: TokenWire.Listed) -> [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [
      ("name", .string(token.name)), ("scope", .string(token.scope?.description ?? "unknown")),
      ("prefix", .string(token.prefix)), ("created", .string(Timestamp.utc(ms: token.createdMs))),
    ]
    if let used = token.lastUsedMs {
      members.append(("last_used", .string(Timestamp.utc(ms: used))))
    }
    if let expires = token.expiresMs {
      members.append(("expires", .string(Timestamp.utc(ms: expires))))
    }
    if let rate = token.writeRatePerSecond {
      members.append(("write_rate_per_s", .number(Double(rate))))
      members.append(("write_burst", token.writeBurst.map { .number(Double($0)) } ?? .null))
    }
    return members
  }
}
