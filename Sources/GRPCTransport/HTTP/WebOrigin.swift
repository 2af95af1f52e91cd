/// An origin as browsers write it in `Origin` (RFC 6454 section 6.2):
/// `scheme://host`, then `:port` only when it is not the scheme's default,
/// in lower case, with nothing after it. Configured origins are held to
/// this form because they are compared with `Origin` byte for byte: one a
/// browser never sends would silently match nothing.
public enum WebOrigin {
  /// Why `text` is not an origin in that form, or nil when it is.
  public static func problem(_ text: String) -> String? {
    let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return "not scheme://host[:port]" }
    let scheme = parts[0]
    let authority = parts[1]
    guard let first = scheme.utf8.first, isLowercaseLetter(first),
      scheme.utf8.allSatisfy({ isLowercaseLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
    else {
      return scheme.isEmpty ? "missing its scheme" : "\"\(scheme)\" is not a lower-case scheme"
    }
    if let cut = authority.firstIndex(where: { "/?#".contains($0) }) {
      let tail = authority[cut...]
      return "an origin ends after the host or port; leave out \"\(tail)\""
    }
    if authority.contains("@") { return "an origin has no user name or password" }
    let (host, port) = split(authority)
    if host.isEmpty { return "missing its host" }
    if host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
      return "browsers send the host in lower case (\(host.lowercased()))"
    }
    guard isHost(host) else { return "\"\(host)\" is not a host name or IP address" }
    guard let port else { return nil }
    guard port.utf8.allSatisfy(isDigit), !port.hasPrefix("0"), let number = Int(port),
      number <= 65535
    else {
      return "\"\(port)\" is not a port (1-65535)"
    }
    if defaultPorts[String(scheme)] == number {
      return "browsers leave out \(scheme)'s default port \(number)"
    }
    return nil
  }

  private static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443]

  /// The host and, after the colon that ends it (an IPv6 literal's own
  /// colons are inside its brackets), the port.
  private static func split(_ authority: Substring) -> (host: Substring, port: Substring?) {
    let hostEnd =
      authority.hasPrefix("[")
      ? authority.firstIndex(of: "]").map { authority.index(after: $0) } ?? authority.endIndex
      : authority.firstIndex(of: ":") ?? authority.endIndex
    let host = authority[..<hostEnd]
    let rest = authority[hostEnd...]
    return (host, rest.isEmpty ? nil : rest.dropFirst(rest.hasPrefix(":") ? 1 : 0))
  }

  /// A registered name (letters, digits and `-._~`, as punycode writes
  /// any other name) or a bracketed IPv6 literal.
  private static func isHost(_ host: Substring) -> Bool {
    if host.hasPrefix("[") {
      let inner = host.dropFirst().dropLast()
      return host.hasSuffix("]") && inner.contains(":")
        && inner.utf8.allSatisfy {
          isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
        }
    }
    return host.utf8.allSatisfy { isLowercaseLetter($0) || isDigit($0) || "-._~".utf8.contains($0) }
  }

  private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }
}
