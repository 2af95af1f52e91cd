import GaugeDomain
import Testing

@testable import GaugeAuth

@Suite struct TokenSecretTests {
  @Test func generatedSecretsHaveTheirShapeAndDiffer() throws {
    let first = try TokenSecret.generate()
    let second = try TokenSecret.generate()
    #expect(first.hasPrefix("gd_"))
    #expect(first.utf8.count == 46)
    #expect(TokenSecret.isWellFormed(first))
    #expect(first != second)
  }

  @Test func wellFormedRefusesOtherShapes() {
    #expect(!TokenSecret.isWellFormed(""))
    #expect(!TokenSecret.isWellFormed("gd_short"))
    #expect(!TokenSecret.isWellFormed("xx_" + String(repeating: "A", count: 43)))
    #expect(!TokenSecret.isWellFormed("gd_" + String(repeating: "+", count: 43)))
    #expect(TokenSecret.isWellFormed("gd_" + String(repeating: "A", count: 42) + "_"))
  }

  @Test func base64URLUsesTheURLAlphabetWithoutPadding() {
    #expect(TokenSecret.base64URL([0xfb, 0xff]) == "-_8")
    #expect(TokenSecret.base64URL([0x66, 0x6f, 0x6f]) == "Zm9v")
  }

  @Test func sha256MatchesTheKnownDigest() {
    // SHA-256("abc"), FIPS 180-2 appendix B.1.
    #expect(
      TokenDigest.sha256(of: "abc").hex
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func digestsMatchOnlyThemselves() {
    let one = TokenDigest.sha256(of: "one")
    #expect(one.matches(TokenDigest.sha256(of: "one")))
    #expect(!one.matches(TokenDigest.sha256(of: "two")))
  }
}
