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

  /// Swift's String equality is canonical equivalence: "\u{212A}elvin"
  /// (KELVIN SIGN) equals "Kelvin" and finds it in a dictionary. The value
  /// paths look the id up before they check it; the equivalent spelling
  /// must be refused as the invalid id it is, not update "Kelvin".
  @Test func anEquivalentSpellingOfAStoredIDIsNotThatWidget() throws {
    var table = WidgetTable()
    _ = try table.put(WidgetPut(id: "Kelvin", content: gaugeDraft()), now: 1000)
    let alias = "\u{212A}elvin"
    #expect(alias == "Kelvin")

    let attempts: [(String, (inout WidgetTable) throws(WidgetError) -> WidgetChange)] = [
      ("setValue", { (table) throws(WidgetError) in try table.setValue(4, id: alias, now: 2000) }),
      (
        "a value-only update",
        { (table) throws(WidgetError) in
          try table.update(
            WidgetUpdate(id: alias, content: ContentPatch(template: .gauge(GaugePatch(value: 4)))),
            now: 2000)
        }
      ),
      (
        "a template value update",
        { (table) throws(WidgetError) in
          try table.update(TemplateValueUpdate(id: alias, kind: .gauge, value: 4), now: 2000)
        }
      ),
    ]
    for (name, attempt) in attempts {
      #expect(throws: WidgetError.self, "\(name)") { try attempt(&table) }
      do {
        _ = try attempt(&table)
      } catch {
        guard case .invalid(let violations) = error else {
          Issue.record("\(name): \(error)")
          continue
        }
        // The patch paths go on to judge the rest as a new widget's.
        #expect(violations.first?.field == "id", "\(name)")
      }
    }
    #expect(UpdateTests.gauge(of: try table.get(id: "Kelvin"))?.value == 3)
    #expect(table.lastRevision == 1)
  }
}
