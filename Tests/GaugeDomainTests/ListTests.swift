import Testing

@testable import GaugeDomain

@Suite struct ListTests {
  static func ids(_ count: Int, prefix: String = "w") -> [String] {
    (0..<count).map { prefix + String(repeating: "0", count: 5 - String($0).count) + String($0) }
  }

  @Test func widgetsAreOrderedByIDBytes() throws {
    let table = try tableOfGauges(["b", "a_1", "a", "B", "a-1", "A", "9"])
    #expect(
      try table.list(ListQuery()).widgets.map(\.id) == ["9", "A", "B", "a", "a-1", "a_1", "b"])
    #expect(table.widgets.map(\.id) == ["9", "A", "B", "a", "a-1", "a_1", "b"])
  }

  @Test func anEmptyTableListsNothing() throws {
    #expect(try WidgetTable().list(ListQuery()) == WidgetPage(widgets: [], nextPageToken: ""))
  }

  @Test func pagesDefaultTo100AndResumeAfterTheToken() throws {
    let all = Self.ids(150)
    let table = try tableOfGauges(all.shuffled())
    let first = try table.list(ListQuery())
    #expect(first.widgets.map(\.id) == Array(all[0..<100]))
    #expect(!first.nextPageToken.isEmpty)
    #expect(first.nextPageToken != first.widgets.last?.id)
    let second = try table.list(ListQuery(pageToken: first.nextPageToken))
    #expect(second.widgets.map(\.id) == Array(all[100...]))
    #expect(second.nextPageToken == "")
  }

  @Test func aFullLastPageHasNoToken() throws {
    let table = try tableOfGauges(["a", "b", "c", "d"])
    let first = try table.list(ListQuery(pageSize: 2))
    let second = try table.list(ListQuery(pageSize: 2, pageToken: first.nextPageToken))
    #expect(first.widgets.map(\.id) == ["a", "b"])
    #expect(second.widgets.map(\.id) == ["c", "d"])
    #expect(second.nextPageToken == "")
  }

  @Test func pageSizeIsCappedAt1000() throws {
    let table = try tableOfGauges(Self.ids(1001))
    let page = try table.list(ListQuery(pageSize: 5000))
    #expect(page.widgets.count == 1000)
    let rest = try table.list(ListQuery(pageSize: .max, pageToken: page.nextPageToken))
    #expect(rest.widgets.map(\.id) == ["w01000"])
    #expect(rest.nextPageToken == "")
  }

  @Test func aPrefixSelectsMatchingIDsAcrossPages() throws {
    let table = try tableOfGauges(["cpu-0", "cpu-1", "cpu-2", "cp", "cpv", "disk", "c"])
    let first = try table.list(ListQuery(idPrefix: "cpu", pageSize: 2))
    #expect(first.widgets.map(\.id) == ["cpu-0", "cpu-1"])
    let second = try table.list(
      ListQuery(idPrefix: "cpu", pageSize: 2, pageToken: first.nextPageToken))
    #expect(second.widgets.map(\.id) == ["cpu-2"])
    #expect(second.nextPageToken == "")
    #expect(try table.list(ListQuery(idPrefix: "x")).widgets.isEmpty)
    #expect(try table.list(ListQuery(idPrefix: "cpu-2")).widgets.map(\.id) == ["cpu-2"])
  }

  @Test func pagingSurvivesDeletingTheLastListedID() throws {
    var table = try tableOfGauges(["a", "b", "c", "d"])
    let first = try table.list(ListQuery(pageSize: 2))
    _ = try table.delete(id: "b")
    _ = try table.put(WidgetPut(id: "bb", content: gaugeDraft()), now: 1)
    let second = try table.list(ListQuery(pageSize: 2, pageToken: first.nextPageToken))
    #expect(second.widgets.map(\.id) == ["bb", "c"])
    #expect(second.nextPageToken != "")
  }

  @Test func aNegativePageSizeIsRejected() throws {
    let table = try tableOfGauges(["a"])
    #expect(throws: WidgetError.invalid([violation("page_size", "must not be negative, got -1")])) {
      try table.list(ListQuery(pageSize: -1))
    }
  }

  @Test(arguments: ["zz", "616", "6G", "4142GG", "61 62", "!", "6162".uppercased() + "Ab", "2d61"])
  func aTokenThatDoesNotDecodeIsRejected(token: String) throws {
    let table = try tableOfGauges(["a"])
    #expect(
      violations { () throws(WidgetError) in try table.list(ListQuery(pageToken: token)) } == [
        violation("page_token", "is not a token from a previous ListWidgets response")
      ])
  }

  @Test func sizeAndTokenProblemsAreReportedTogether() {
    #expect(
      fields(
        violations { () throws(WidgetError) in
          try WidgetTable().list(ListQuery(pageSize: -5, pageToken: "?"))
        }) == ["page_size", "page_token"])
  }

  @Test func tokensRoundTripAndAreNotIDs() {
    for id in ["a", "cpu_load-1", repeated("Z", 128)] {
      let token = PageToken.encode(lastID: id)
      #expect(token != id)
      #expect(PageToken.decode(token) == id)
    }
    #expect(PageToken.encode(lastID: "a-") == "612d")
  }

  @Test func tenThousandWidgetsPageInOrder() throws {
    var table = WidgetTable()
    let all = Self.ids(10_000)
    for id in all.shuffled() {
      _ = try table.put(WidgetPut(id: id, content: gaugeDraft()), now: 1)
    }
    for id in all.shuffled().prefix(2_000) {
      _ = try table.update(
        WidgetUpdate(id: id, content: ContentPatch(template: .gauge(GaugePatch(value: 4)))), now: 2)
    }
    var seen: [String] = []
    var token = ""
    repeat {
      let page = try table.list(ListQuery(pageSize: 1000, pageToken: token))
      seen += page.widgets.map(\.id)
      token = page.nextPageToken
    } while !token.isEmpty
    #expect(seen == all)
    #expect(table.lastRevision == 12_000)
  }
}
