import GaugeAuth
import GaugeDomain
import GaugeService

/// Runs an input through everything that reads a token or a scope from
/// outside: `--tokens-file` lines, `authorization` values and cookies, scope
/// names, digests in hex, and the gate itself. Any of them may refuse, with
/// the field and the rule named; none may trap. What a line accepts must
/// read back the same from its own canonical form, and the gate must grant
/// nothing to a request that does not carry the one known secret.
public enum TokensHarness {
  static let secret = "gd_" + String(repeating: "A", count: 42) + "Q"
  static let gate = AccessGate(
    registry: TokenRegistry(tokens: [
      AccessToken(
        name: "known", scope: .write, reach: .prefix("team-"), digest: .sha256(of: secret),
        createdMs: 0)
    ]))

  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      try checkLine(line)
      try checkCredential(String(line))
      _ = Scope(name: line)
      if let digest = TokenDigest(hex: line), TokenDigest(hex: digest.hex) != digest {
        throw FuzzFinding("the digest \(line) does not read back from its hex")
      }
    }
    try checkCredential(text)
  }

  private static func checkLine(_ line: Substring) throws(FuzzFinding) {
    switch TokenLine.parse(line, createdMs: 0) {
    case .nothing:
      return
    case .invalid(let violation):
      if violation.field.isEmpty || violation.description.isEmpty {
        throw FuzzFinding("\(line) refused without naming the field and the rule")
      }
    case .token(let token):
      let scope =
        token.reach == .everything
        ? token.scope.description : "\(token.scope):\(token.reach.prefix)"
      let canonical = "\(token.name) \(scope) \(token.digest.hex)"
      guard TokenLine.parse(Substring(canonical), createdMs: 0) == .token(token) else {
        throw FuzzFinding("\(line) reads as \(token), which does not read back from \(canonical)")
      }
    }
  }

  private static func checkCredential(_ value: String) throws(FuzzFinding) {
    _ = BearerCredential.fromCookie(value)
    let decision = gate.check(.scope(.read), authorization: value, cookie: value, nowMs: 0)
    let carriesSecret =
      BearerCredential.fromAuthorization(value) == .secret(Substring(secret))
      || (BearerCredential.fromAuthorization(value) == .none
        && BearerCredential.fromCookie(value) == .secret(Substring(secret)))
    switch decision {
    case .granted(let grant):
      guard carriesSecret, grant.reach == .prefix("team-"), grant.tokenName == "known" else {
        throw FuzzFinding("\(value) was granted \(grant) without the known secret")
      }
    case .refused(let refusal):
      if carriesSecret { throw FuzzFinding("the known secret was refused: \(refusal)") }
      if refusal.message.isEmpty { throw FuzzFinding("\(value) refused without a message") }
    }
  }
}
