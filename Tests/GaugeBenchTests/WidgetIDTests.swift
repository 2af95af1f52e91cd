import Testing

@testable import gauge_bench

@Suite struct WidgetIDTests {
  @Test func widgetIDsSortInCreationOrder() {
    let ids = [0, 9, 10, 99_999, 100_000].map(BenchRequests.widgetID)
    #expect(ids == ["bench-00000", "bench-00009", "bench-00010", "bench-99999", "bench-100000"])
    #expect(ids.dropLast() == ids.dropLast().sorted())
  }
}
