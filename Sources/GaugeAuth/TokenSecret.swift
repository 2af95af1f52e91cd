import COpenSSL
import GRPCCore

/// A token's secret: `gd_` and 32 random bytes (libcrypto's RAND_bytes) in
/// unpadded base64url, 46 characters. Shown once when made; only its
/// digest is kept.
public enum TokenSecret {
  public static let marker = "gd_"
  static let randomByteCount = 32
  /// 32 bytes are 43 base64url characters without padding.
  public static let length = 3 + 43

  public enum Failure: Error, Equatable {
    case noRandomness
  }

  public static func generate() throws(Failure) -> String {
    var random = [UInt8](repeating: 0, count: randomByteCount)
    let done = random.withUnsafeMutableBufferPointer {
      RAND_bytes($0.baseAddress, Int32(randomByteCount))
    }
    guard done == 1 else { throw .noRandomness }
    return marker + base64URL(random)
  }

  /// True when `text` has a secret's shape; anything else is refused before
  /// it is hashed. Read as bytes: the generic walk over characters was
  /// most of what checking a token cost.
  public static func isWellFormed(_ text: Substring) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { isWellFormed(utf8: $0) }
      ?? Array(text.utf8).withUnsafeBufferPointer { isWellFormed(utf8: $0) }
  }

  public static func isWellFormed(_ text: String) -> Bool {
    isWellFormed(Substring(text))
  }

  static func isWellFormed(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == length, bytes[0] == UInt8(ascii: "g"), bytes[1] == UInt8(ascii: "d"),
      bytes[2] == UInt8(ascii: "_")
    else { return false }
    for byte in bytes[3...] where !isBase64URL(byte) { return false }
    return true
  }

  private static func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// Base64 without padding, with the URL-safe alphabet's two letters.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let encoded = Base64.encodedBytes(bytes, padded: false).map { byte in
      switch byte {
      case UInt8(ascii: "+"): UInt8(ascii: "-")
      case UInt8(ascii: "/"): UInt8(ascii: "_")
      default: byte
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }
}
