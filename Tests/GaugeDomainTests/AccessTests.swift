import Testing

@testable import GaugeDomain

@Suite struct AccessTests {
  @Test func scopesImplyTheOnesBelow() {
    #expect(Scope.admin.covers(.write))
    #expect(Scope.admin.covers(.read))
    #expect(Scope.write.covers(.read))
    #expect(!Scope.write.covers(.admin))
    #expect(!Scope.read.covers(.write))
    #expect(Scope(name: "admin") == .admin)
    #expect(Scope(name: "Admin") == nil)
  }

  @Test func reachNarrowsPrefixesAndFilters() throws {
    let reach = WidgetReach.prefix("team-a.")
    #expect(reach.narrow(prefix: "") == "team-a.")
    #expect(reach.narrow(prefix: "team-") == "team-a.")
    #expect(reach.narrow(prefix: "team-a.cpu") == "team-a.cpu")
    #expect(reach.narrow(prefix: "team-b.") == nil)
    #expect(try reach.narrow(WidgetFilter()).get() == WidgetFilter(idPrefix: "team-a."))
    #expect(
      try reach.narrow(WidgetFilter(ids: ["team-a.x"])).get() == WidgetFilter(ids: ["team-a.x"]))
    #expect(throws: WidgetError.outsideReach(id: "team-b.x", prefix: "team-a.")) {
      try reach.narrow(WidgetFilter(ids: ["team-a.x", "team-b.x"])).get()
    }
    #expect(WidgetReach.everything.narrow(prefix: "x") == "x")
  }

  @Test func tokenLinesParseOrNameTheirFault() {
    let hex = String(repeating: "ab", count: 32)
    guard case .token(let token) = TokenLine.parse("ci write:team- \(hex)", createdMs: 7) else {
      Issue.record("no token")
      return
    }
    #expect(token.name == "ci")
    #expect(token.scope == .write)
    #expect(token.reach == .prefix("team-"))
    #expect(token.digest.hex == hex)
    #expect(TokenLine.parse("  # comment", createdMs: 0) == .nothing)
    #expect(TokenLine.parse("", createdMs: 0) == .nothing)
    func field(_ line: Substring) -> String? {
      if case .invalid(let violation) = TokenLine.parse(line, createdMs: 0) {
        return violation.field
      }
      return nil
    }
    #expect(field("ci write") == "line")
    #expect(field("ci root \(hex)") == "scope")
    #expect(field("ci read: \(hex)") == "prefix")
    #expect(field("ci read xyz") == "sha256")
    #expect(field("c/i read \(hex)") == "name")
  }
}
