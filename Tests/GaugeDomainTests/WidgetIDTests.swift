import Testing

@testable import GaugeDomain

@Suite struct WidgetIDTests {
  static let patternMessage =
    "must start with a letter or digit and contain only letters, digits, \"_\" and \"-\""

  @Test(arguments: ["a", "Z", "7", "cpu_load-1", "A-_", String(repeating: "x", count: 128)])
  func validIDsAreAccepted(id: String) throws {
    #expect(WidgetID.isValid(id))
    var table = WidgetTable()
    let change = try table.put(WidgetPut(id: id, content: gaugeDraft()), now: 1)
    #expect(change.widget?.id == id)
  }

  @Test(arguments: ["-a", "_a", "a.b", "a b", "é", "a/b", "a\u{0}"])
  func idsOutsideThePatternAreRejected(id: String) {
    #expect(!WidgetID.isValid(id))
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: id, content: gaugeDraft()), now: 1)
    }
    #expect(found == [violation("id", Self.patternMessage)])
  }

  @Test func an129CharacterIDIsRejected() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: repeated("x", 129), content: gaugeDraft()), now: 1)
    }
    #expect(found == [violation("id", "must be at most 128 characters, got 129")])
  }

  @Test(arguments: [nil, ""] as [String?])
  func aMissingOrEmptyIDIsRequired(id: String?) {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: id, content: gaugeDraft()), now: 1)
    }
    #expect(found == [violation("id", "is required")])
  }

  @Test func violationNamesTheGivenField() {
    #expect(WidgetID.violation(of: "ok") == nil)
    #expect(WidgetID.violation(of: "", at: "ids[3]") == violation("ids[3]", "is required"))
  }
}
