/// The byte-level syntax of request header fields that RFC 9113 (section
/// 8.2) and RFC 9110 ask a server to check, with the same strictness as
/// libnghttp2's HTTP messaging checks, which gauged's server sessions turn
/// off to do the work once, alongside recognising the fields.
///
/// Character classes are bit masks over ASCII (two words: bytes 0-63 and
/// 64-127); no byte above 127 is in any of them. A lookup is a shift, with
/// no table in memory and no bounds check.
enum HTTPFieldSyntax {
  /// What a field name is worth.
  enum NameCheck: Equatable {
    case valid
    /// A capital letter: the request is malformed (RFC 9113 section 8.2.1).
    case uppercase
    /// Empty or not a token: the field is dropped, as nghttp2 does, since
    /// clients in the wild send such fields with requests worth serving.
    case invalid
  }

  /// A regular (not pseudo) field name: a token of lowercase characters.
  static func checkName(_ name: UnsafeRawBufferPointer) -> NameCheck {
    guard !name.isEmpty else { return .invalid }
    var verdict = NameCheck.valid
    for byte in name where !isLowercaseToken(byte) {
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return .uppercase }
      verdict = .invalid
    }
    return verdict
  }

  /// A field value as RFC 9113 section 8.2.1 allows it: no NUL, CR or LF,
  /// no SP or HTAB at either end; and, as nghttp2 also requires, no other
  /// control character but HTAB. Eight bytes at a time while nothing below
  /// 0x20 or equal to 0x7F turns up, byte by byte after that.
  static func isValidValue(_ value: UnsafeRawBufferPointer) -> Bool {
    guard let first = value.first, let last = value.last else { return true }
    guard !isBlank(first), !isBlank(last) else { return false }
    var offset = wordsWithout(below: 0x20, in: value)
    while offset < value.count {
      let byte = value[offset]
      if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F { return false }
      offset += 1
    }
    return true
  }

  /// `:path`: not empty, and, as nghttp2 checks it, a value without SP or
  /// HTAB anywhere: no byte up to 0x20, none equal to 0x7F.
  static func isValidPath(_ value: UnsafeRawBufferPointer) -> Bool {
    guard !value.isEmpty else { return false }
    var offset = wordsWithout(below: 0x21, in: value)
    while offset < value.count {
      let byte = value[offset]
      if byte <= 0x20 || byte == 0x7F { return false }
      offset += 1
    }
    return true
  }

  /// `:method`: a token (RFC 9110 section 9.1).
  static func isValidMethod(_ value: UnsafeRawBufferPointer) -> Bool {
    !value.isEmpty && value.allSatisfy(isToken)
  }

  /// `:scheme`: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986
  /// section 3.1).
  static func isValidScheme(_ value: UnsafeRawBufferPointer) -> Bool {
    guard let first = value.first, isLetter(first) else { return false }
    return value.allSatisfy { isLetter($0) || isIn(schemeExtra, $0) }
  }

  /// `:authority` or `host`: not empty, and only characters an authority
  /// can hold (RFC 3986 section 3.2: unreserved, sub-delims, ":", "@",
  /// "[", "]" and "%" of percent-encoding).
  static func isValidAuthority(_ value: UnsafeRawBufferPointer) -> Bool {
    guard let base = value.baseAddress, !value.isEmpty else { return false }
    // An exit per byte keeps the compiler from vectorising the loop, which
    // SSE2's shifts made three times slower on an authority's few bytes.
    let set = authorityCharacters
    for offset in 0..<value.count {
      if !isIn(set, base.load(fromByteOffset: offset, as: UInt8.self)) { return false }
    }
    return true
  }

  /// `content-length`: decimal digits only, within Int64.
  static func contentLength(_ value: UnsafeRawBufferPointer) -> Int64? {
    guard !value.isEmpty else { return nil }
    var length: Int64 = 0
    for byte in value {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow) = length.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      guard !overflow, !carry else { return nil }
      length = sum
    }
    return length
  }

  /// ASCII letters compared without case, for `te: trailers`.
  static func equalsIgnoringCase(_ value: UnsafeRawBufferPointer, _ lowercase: StaticString)
    -> Bool
  {
    value.count == lowercase.utf8CodeUnitCount && hasPrefixIgnoringCase(value, lowercase)
  }

  /// Whether `value` starts with `lowercase`, ASCII letters compared
  /// without case: they differ from their capitals in bit 0x20 alone.
  static func hasPrefixIgnoringCase(_ value: UnsafeRawBufferPointer, _ lowercase: StaticString)
    -> Bool
  {
    guard value.count >= lowercase.utf8CodeUnitCount else { return false }
    for offset in 0..<lowercase.utf8CodeUnitCount {
      let byte = value[offset]
      let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      guard folded == lowercase.utf8Start[offset] else { return false }
    }
    return true
  }

  // MARK: - Character classes

  /// A set of ASCII bytes: bit `b` of `low` for byte b < 64, bit `b - 64`
  /// of `high` for the rest.
  struct ByteClass: Equatable {
    var low: UInt64
    var high: UInt64

    init(low: UInt64, high: UInt64) {
      self.low = low
      self.high = high
    }

    /// The class of `characters` and the bytes in `ranges`.
    init(_ characters: String, ranges: [ClosedRange<UInt8>] = []) {
      (low, high) = (0, 0)
      for byte in characters.utf8 { insert(byte) }
      for range in ranges { for byte in range { insert(byte) } }
    }

    private mutating func insert(_ byte: UInt8) {
      if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }
  }

  @inline(__always)
  static func isIn(_ set: ByteClass, _ byte: UInt8) -> Bool {
    let word = byte & 0x40 == 0 ? set.low : set.high
    return byte < 0x80 && word >> UInt64(byte & 0x3F) & 1 != 0
  }

  // The classes are literals, so that testing a byte costs no lazy
  // initialisation check; `HTTPFieldSyntaxTests` builds each one again
  // from its characters.

  /// RFC 9110 section 5.6.2's tchar: "!#$%&'*+-.^_`|~", digits, letters.
  static let token = ByteClass(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
  /// tchar without the capitals: what a field name may hold.
  static let lowercaseToken = ByteClass(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C000_0000)
  /// What a scheme holds after its first letter besides letters: "+-." and
  /// digits.
  static let schemeExtra = ByteClass(low: 0x03FF_6800_0000_0000, high: 0)
  /// Unreserved, sub-delims, ":", "@", "[", "]" and "%".
  static let authorityCharacters = ByteClass(
    low: 0x2FFF_7FF2_0000_0000, high: 0x47FF_FFFE_AFFF_FFFF)

  private static func isToken(_ byte: UInt8) -> Bool { isIn(token, byte) }
  private static func isLowercaseToken(_ byte: UInt8) -> Bool { isIn(lowercaseToken, byte) }

  private static func isLetter(_ byte: UInt8) -> Bool {
    let folded = byte | 0x20
    return folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  // MARK: - Eight bytes at a time

  /// How many bytes from the start of `value`, in whole words of eight,
  /// hold no byte below `limit` and none equal to 0x7F: the checks above
  /// look at the rest, from the first word with such a byte, byte by byte.
  @inline(__always)
  private static func wordsWithout(below limit: UInt8, in value: UnsafeRawBufferPointer) -> Int {
    var offset = 0
    while offset + 8 <= value.count {
      let word = value.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      if hasByte(in: word, below: limit) || hasZeroByte(word ^ everyByte(0x7F)) { break }
      offset += 8
    }
    return offset
  }

  private static func everyByte(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

  /// Whether some byte of `word` is zero (exact: borrows only run upward
  /// from a zero byte, which is already counted).
  private static func hasZeroByte(_ word: UInt64) -> Bool {
    (word &- everyByte(0x01)) & ~word & everyByte(0x80) != 0
  }

  /// Whether some byte of `word` is below `limit`, at most 0x80 (exact:
  /// a byte at 0x80 or above is masked out, and a borrow only reaches the
  /// bytes above one that is below the limit).
  private static func hasByte(in word: UInt64, below limit: UInt8) -> Bool {
    (word &- everyByte(limit)) & ~word & everyByte(0x80) != 0
  }
}
