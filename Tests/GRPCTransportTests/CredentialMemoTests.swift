import Testing

@testable import GRPCTransport

/// The connection's memory of its `authorization`: the same bytes give the
/// same text, and a conclusion holds only for the credential it was about.
@Suite struct CredentialMemoTests {
  final class Conclusion {}

  static func text(_ memo: CredentialMemo, _ value: String) -> String {
    Array(value.utf8).withUnsafeBytes { memo.text(of: $0) }
  }

  static func repeated(_ memo: CredentialMemo, _ value: String) -> String? {
    Array(value.utf8).withUnsafeBytes { memo.repeated($0) }
  }

  @Test func repeatedBytesGiveTheTextMadeTheFirstTime() {
    let memo = CredentialMemo()
    #expect(Self.repeated(memo, "Bearer gd_one") == nil)
    #expect(Self.text(memo, "Bearer gd_one") == "Bearer gd_one")
    #expect(Self.repeated(memo, "Bearer gd_one") == "Bearer gd_one")
    // Another credential replaces it.
    #expect(Self.text(memo, "Bearer gd_two") == "Bearer gd_two")
    #expect(Self.repeated(memo, "Bearer gd_one") == nil)
    #expect(Self.repeated(memo, "Bearer gd_tw") == nil)
  }

  @Test func anEmptyValueIsTextToo() {
    let memo = CredentialMemo()
    #expect(Self.text(memo, "") == "")
    #expect(Self.repeated(memo, "") == "")
  }

  @Test func valuesLongerThanAnyTokenAreNotKept() {
    let memo = CredentialMemo()
    let long = "Bearer " + String(repeating: "x", count: CredentialMemo.longestKept)
    #expect(Self.text(memo, long) == long)
    #expect(Self.repeated(memo, long) == nil)
  }

  @Test func aConclusionHoldsForItsCredentialOnly() {
    let memo = CredentialMemo()
    let conclusion = Conclusion()
    #expect(memo.conclusion(about: "Bearer gd_one") == nil)
    memo.remember(conclusion, about: "Bearer gd_one")
    #expect(memo.conclusion(about: "Bearer gd_one") === conclusion)
    #expect(memo.conclusion(about: "Bearer gd_two") == nil)
    memo.forget()
    #expect(memo.conclusion(about: "Bearer gd_one") == nil)
  }
}
