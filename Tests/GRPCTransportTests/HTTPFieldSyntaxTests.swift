import Testing

@testable import GRPCTransport

/// The byte-level field rules, against RFC 9110's and RFC 9113's wording,
/// byte by byte where a class is involved.
@Suite struct HTTPFieldSyntaxTests {
  private typealias Syntax = HTTPFieldSyntax

  private static let tchar = "!#$%&'*+-.^_`|~"
  private static let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
  private static let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
  private static let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")

  /// The literal masks are the classes their comments name.
  @Test func literalClassesHoldTheirCharacters() {
    #expect(Syntax.token == .init(Self.tchar, ranges: [Self.digits, Self.lower, Self.upper]))
    #expect(Syntax.lowercaseToken == .init(Self.tchar, ranges: [Self.digits, Self.lower]))
    #expect(Syntax.schemeExtra == .init("+-.", ranges: [Self.digits]))
    #expect(
      Syntax.authorityCharacters
        == .init("-._~!$&'()*+,;=:@[]%", ranges: [Self.digits, Self.lower, Self.upper]))
    for byte in UInt8(128)...UInt8(255) { #expect(!Syntax.isIn(Syntax.token, byte)) }
  }

  @Test func namesAreLowercaseTokens() {
    #expect(check("grpc-timeout") == .valid)
    #expect(check("x-a.b_c~1") == .valid)
    #expect(check("X-Custom") == .uppercase)
    #expect(check("x-Custom") == .uppercase)
    #expect(check("") == .invalid)
    #expect(check("x y") == .invalid)
    #expect(check("x:y") == .invalid)
    #expect(check("x\u{7F}") == .invalid)
    #expect(bytes([0x78, 0xC3, 0xA9]) { Syntax.checkName($0) } == .invalid)
  }

  /// Each byte value in the middle of a value, and in each position of a
  /// value long enough to be read eight bytes at a time.
  @Test func valuesRefuseControlCharactersButHTAB() {
    for byte in UInt8(0)...UInt8(255) {
      let allowed = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
      #expect(bytes([0x61, byte, 0x61]) { Syntax.isValidValue($0) } == allowed, "\(byte)")
    }
    for position in 1..<23 {
      for bad: UInt8 in [0x00, 0x0A, 0x0D, 0x1F, 0x7F] {
        var value = [UInt8](repeating: UInt8(ascii: "v"), count: 24)
        value[position] = bad
        #expect(!bytes(value) { Syntax.isValidValue($0) }, "\(bad) at \(position)")
      }
      var tabbed = [UInt8](repeating: 0xE9, count: 24)
      tabbed[position] = 0x09
      #expect(bytes(tabbed) { Syntax.isValidValue($0) }, "HTAB at \(position)")
    }
  }

  @Test func valuesHaveNoBlankAtEitherEnd() {
    #expect(valid(""))
    #expect(valid("a b\tc"))
    for blank in [" a", "a ", "\ta", "a\t", " ", "long value ending in a tab\t"] {
      #expect(!valid(blank), "\(blank.debugDescription)")
    }
  }

  @Test func pathsHaveNoBlankAndAreNotEmpty() {
    #expect(path("/gauge.v1.WidgetService/GetWidget"))
    #expect(path("*"))
    #expect(!path(""))
    #expect(!path("/a b"))
    #expect(!path("/a\tb"))
    #expect(!path("/a\u{7F}"))
  }

  /// Each byte value in a path, and each bad one in each position of a
  /// path read eight bytes at a time.
  @Test func pathsRefuseEveryByteUpToSpaceAndDEL() {
    for byte in UInt8(0)...UInt8(255) {
      let allowed = byte > 0x20 && byte != 0x7F
      #expect(bytes([0x2F, byte, 0x61]) { Syntax.isValidPath($0) } == allowed, "\(byte)")
    }
    for position in 0..<24 {
      for bad: UInt8 in [0x00, 0x09, 0x20, 0x1F, 0x7F] {
        var value = [UInt8](repeating: 0xC3, count: 24)
        value[position] = bad
        #expect(!bytes(value) { Syntax.isValidPath($0) }, "\(bad) at \(position)")
      }
    }
  }

  @Test func methodsAreTokens() {
    #expect(bytes(Array("PATCH".utf8)) { Syntax.isValidMethod($0) })
    #expect(!bytes([]) { Syntax.isValidMethod($0) })
    #expect(!bytes(Array("GE T".utf8)) { Syntax.isValidMethod($0) })
    #expect(!bytes(Array("GET/".utf8)) { Syntax.isValidMethod($0) })
  }

  @Test func schemesStartWithALetter() {
    for good in ["http", "HTTPS", "coap+tcp", "a1-.+"] {
      #expect(bytes(Array(good.utf8)) { Syntax.isValidScheme($0) }, "\(good)")
    }
    for bad in ["", "1http", "+x", "ht tp", "http:", "x_y"] {
      #expect(!bytes(Array(bad.utf8)) { Syntax.isValidScheme($0) }, "\(bad)")
    }
  }

  @Test func authoritiesHoldOnlyAuthorityCharacters() {
    for good in ["127.0.0.1:8080", "[::1]:80", "user@host", "h%20st", "a-b.example"] {
      #expect(bytes(Array(good.utf8)) { Syntax.isValidAuthority($0) }, "\(good)")
    }
    for bad in ["", "a b", "host/path", "host?q", "a\"b", "h\u{7F}", "#frag"] {
      #expect(!bytes(Array(bad.utf8)) { Syntax.isValidAuthority($0) }, "\(bad)")
    }
  }

  @Test func contentLengthIsDecimalWithinInt64() {
    #expect(length("0") == 0)
    #expect(length("1234") == 1234)
    #expect(length("9223372036854775807") == Int64.max)
    #expect(length("9223372036854775808") == nil)
    #expect(length("99999999999999999999") == nil)
    for bad in ["", "-1", "+1", "1a", " 1", "0x10"] { #expect(length(bad) == nil, "\(bad)") }
  }

  @Test func trailersIsComparedWithoutCase() {
    for good in ["trailers", "Trailers", "TRAILERS"] {
      #expect(bytes(Array(good.utf8)) { Syntax.equalsIgnoringCase($0, "trailers") })
    }
    for bad in ["trailer", "trailers,", "gzip", "trailerS "] {
      #expect(!bytes(Array(bad.utf8)) { Syntax.equalsIgnoringCase($0, "trailers") })
    }
  }

  // MARK: - Helpers

  private func bytes<Result>(_ value: [UInt8], _ body: (UnsafeRawBufferPointer) -> Result)
    -> Result
  {
    value.withUnsafeBytes(body)
  }

  private func check(_ name: String) -> Syntax.NameCheck {
    bytes(Array(name.utf8)) { Syntax.checkName($0) }
  }

  private func valid(_ value: String) -> Bool {
    bytes(Array(value.utf8)) { Syntax.isValidValue($0) }
  }

  private func path(_ value: String) -> Bool {
    bytes(Array(value.utf8)) { Syntax.isValidPath($0) }
  }

  private func length(_ value: String) -> Int64? {
    bytes(Array(value.utf8)) { Syntax.contentLength($0) }
  }
}
