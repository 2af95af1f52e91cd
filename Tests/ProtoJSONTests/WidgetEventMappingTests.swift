import Testing

@testable import ProtoJSON

@Suite struct WidgetEventMappingTests {
  @Test(arguments: [
    (
      WireBytes().varint(1, 12).message(2, SampleWire.progressWidget),
      #"{"revision":"12","upsert":"# + SampleWire.progressWidgetJSON + "}"
    ),
    (WireBytes().varint(1, 13).string(3, "cpu"), #"{"revision":"13","removed":"cpu"}"#),
    (WireBytes().message(4, WireBytes()), #"{"synced":{}}"#),
    (WireBytes().message(5, WireBytes()), #"{"reset":{}}"#),
  ])
  func roundTripsEachMemberOfTheOneof(wire: WireBytes, json: String) throws {
    #expect(try Messages.widgetEvent.json(wire) == json)
    #expect(try Messages.widgetEvent.binary(json) == wire.bytes)
  }

  @Test func writesOnlyTheMemberSetLastOnTheWire() throws {
    let wire = WireBytes()
      .string(3, "gone").message(4, WireBytes()).message(2, WireBytes().string(1, "a"))
      .string(3, "cpu")
    #expect(try Messages.widgetEvent.json(wire) == #"{"removed":"cpu"}"#)
  }

  @Test func mergesOnlyTheOccurrencesAfterAnotherMemberWasSet() throws {
    let wire = WireBytes()
      .message(2, WireBytes().string(1, "first").string(2, "dropped"))
      .string(3, "cleared it")
      .message(2, WireBytes().string(1, "a"))
      .message(2, WireBytes().varint(4, 3))
    #expect(try Messages.widgetEvent.json(wire) == #"{"upsert":{"id":"a","revision":"3"}}"#)
  }

  @Test func refusesTwoMembersOfTheOneofNamingTheSecond() {
    #expect(
      Messages.widgetEvent.jsonError(#"{"removed": "cpu", "synced": {}}"#)
        == ProtoJSONError(field: "synced", rule: "is in a oneof with removed, which is already set")
    )
    #expect(
      Messages.putWidgetRequest.jsonError(
        #"{"widget": {"content": {"progress": {}, "label": "x", "gauge": {}}}}"#)
        == ProtoJSONError(
          field: "widget.content.gauge", rule: "is in a oneof with progress, which is already set"))
  }

  @Test func allowsANullMemberBesideTheOneSet() throws {
    #expect(
      try Messages.widgetEvent.binary(#"{"removed": null, "synced": {}}"#)
        == WireBytes().message(4, WireBytes()).bytes)
    #expect(
      try Messages.widgetEvent.binary(#"{"synced": {}, "removed": null}"#)
        == WireBytes().message(4, WireBytes()).bytes)
  }
}
