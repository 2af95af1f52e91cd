/// The keys a bucket accepts, as NATS defines them: letters, digits and
/// `-/_=.`, not starting or ending with a dot. Writes build the key's
/// subject themselves (to learn JetStream's error code), so they check it
/// here as libnats's own calls do.
enum KVKey {
  static func check(_ key: String, operation: String) throws(NATSError) {
    let bytes = key.utf8
    let valid =
      !bytes.isEmpty && bytes.first != UInt8(ascii: ".") && bytes.last != UInt8(ascii: ".")
      && bytes.allSatisfy(isAllowed)
    guard valid else {
      throw NATSError(operation: operation, kind: .invalid, detail: "invalid key \"\(key)\"")
    }
  }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "="),
      UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }
}
