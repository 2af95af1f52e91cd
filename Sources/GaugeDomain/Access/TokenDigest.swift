/// The SHA-256 of a token's secret: all a server keeps of it. Computed by
/// `GaugeAuth` (libcrypto); here only the value, its hex form and hashing
/// for lookups. Four words inline rather than an array: one is made per
/// request with a token, and looked up at once.
public struct TokenDigest: Sendable, Hashable {
  public static let byteCount = 32
  /// The 32 bytes in memory order.
  public let words: (UInt64, UInt64, UInt64, UInt64)

  /// nil unless `bytes` is exactly 32 bytes long.
  public init?(bytes: [UInt8]) {
    guard bytes.count == Self.byteCount else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    bytes.withUnsafeBytes { source in
      withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: source) }
    }
    self.words = words
  }

  /// Reads the 32 bytes `write` lays out.
  public init(writing write: (UnsafeMutableRawBufferPointer) -> Void) {
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &words) { write($0) }
    self.words = words
  }

  public var bytes: [UInt8] { withUnsafeBytes(of: words) { Array($0) } }

  public static func == (lhs: TokenDigest, rhs: TokenDigest) -> Bool {
    lhs.words == rhs.words
  }

  public func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
  }

  /// 64 hex digits, either case; nil for anything else.
  public init?(hex: some StringProtocol) {
    let utf8 = Array(hex.utf8)
    guard utf8.count == Self.byteCount * 2 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.byteCount)
    var index = 0
    while index < utf8.count {
      guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    self.init(bytes: bytes)
  }

  /// Lower-case hex, as `--tokens-file` lines carry it.
  public var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(Self.byteCount * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
