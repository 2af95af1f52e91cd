import GaugeDomain
import GaugeWire
import Testing

@Suite struct SmallRequestDecodingTests {
  @Test func getAndDeleteReadTheIdOrEmpty() throws {
    let request = ProtoBytes().string(1, "cpu-1")
    #expect(try decode(request, with: WidgetWire.decodeGetWidgetRequest) == "cpu-1")
    #expect(try decode(request, with: WidgetWire.decodeDeleteWidgetRequest) == "cpu-1")
    #expect(try decode([], with: WidgetWire.decodeGetWidgetRequest) == "")
    #expect(try decode([], with: WidgetWire.decodeDeleteWidgetRequest) == "")
  }

  @Test func listDefaultsWhenAbsent() throws {
    #expect(try decode([], with: WidgetWire.decodeListWidgetsRequest) == ListQuery())
  }

  @Test func listReadsEveryField() throws {
    let request = ProtoBytes()
      .string(1, "cpu-").varint(2, UInt64(bitPattern: -5)).string(3, "token")
    #expect(
      try decode(request, with: WidgetWire.decodeListWidgetsRequest)
        == ListQuery(idPrefix: "cpu-", pageSize: -5, pageToken: "token"))
  }

  @Test func valueUpdateKeepsAnAbsentValueApartFromZero() throws {
    let withValue = try decode(
      ProtoBytes().string(1, "w").double(2, 0), with: WidgetWire.decodeValueUpdate)
    #expect(withValue.id == "w")
    #expect(withValue.value == 0)
    let without = try decode(ProtoBytes().string(1, "w"), with: WidgetWire.decodeValueUpdate)
    #expect(without.value == nil)
    let empty = try decode([], with: WidgetWire.decodeValueUpdate)
    #expect(empty.id == "")
    #expect(empty.value == nil)
  }

  @Test func subscribeDefaultsToASnapshotOfEverything() throws {
    #expect(try decode([], with: WidgetWire.decodeSubscribeRequest) == SubscribeQuery())
    #expect(SubscribeQuery().includeSnapshot)
  }

  @Test func subscribeReadsEveryField() throws {
    let request = ProtoBytes()
      .string(1, "a").string(1, "b").string(2, "cpu-").varint(3, 0).varint(4, 0).varint(5, 250)
    #expect(
      try decode(request, with: WidgetWire.decodeSubscribeRequest)
        == SubscribeQuery(
          ids: ["a", "b"], idPrefix: "cpu-", includeSnapshot: false, sinceRevision: 0,
          minIntervalMs: 250))
  }
}
