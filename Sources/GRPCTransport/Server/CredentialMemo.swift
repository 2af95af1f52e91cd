import Glibc

/// What one connection remembers of the credential (`authorization`) its
/// requests carry. A client sends the same one on every request of a
/// connection, and HPACK hands over the same bytes each time: the memo makes
/// them into text once, and keeps what the layer that checks credentials
/// (the access gate) concluded about that text, so the check is made once
/// per connection rather than once per request. The conclusion is the
/// checker's own object, which also says when it stops holding (tokens
/// change, a token expires). Used on the connection's loop only.
public final class CredentialMemo {
  private var bytes: [UInt8] = []
  private var text = ""
  private var conclusion: AnyObject?
  private var concludedAbout = ""

  public init() {}

  /// The text of `value`: the same String as last time while the bytes
  /// repeat, so that comparing it with the credential concluded about
  /// finds the same storage.
  public func text(of value: UnsafeRawBufferPointer) -> String {
    if let text = repeated(value) { return text }
    // Values longer than any bearer token are not kept: a client sending
    // large ones would otherwise make the memo hold them.
    guard value.count <= Self.longestKept else { return String(decoding: value, as: UTF8.self) }
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: value)
    text = String(decoding: value, as: UTF8.self)
    return text
  }

  /// The text of `value` when it is the value last made into text: a
  /// value that was valid then.
  public func repeated(_ value: UnsafeRawBufferPointer) -> String? {
    holds(value) ? text : nil
  }

  /// What was concluded about `credential`, when it is the credential last
  /// concluded about.
  public func conclusion(about credential: String) -> AnyObject? {
    guard let conclusion, credential == concludedAbout else { return nil }
    return conclusion
  }

  /// Keeps `conclusion` about `credential`, in place of the last one.
  public func remember(_ conclusion: AnyObject, about credential: String) {
    self.conclusion = conclusion
    concludedAbout = credential
  }

  /// Forgets the conclusion (the checker found it no longer holds).
  public func forget() {
    conclusion = nil
    concludedAbout = ""
  }

  static let longestKept = 512

  private func holds(_ value: UnsafeRawBufferPointer) -> Bool {
    guard value.count == bytes.count else { return false }
    guard let base = value.baseAddress, !bytes.isEmpty else { return true }
    return bytes.withUnsafeBytes { kept in memcmp(kept.baseAddress!, base, value.count) == 0 }
  }
}
