import Testing

@testable import ProtoJSON

/// How the wire's freedoms are read: any field order, repeats, unknown
/// fields, and messages given in pieces.
@Suite struct WireReadingTests {
  @Test func skipsUnknownFieldsOfEveryWireType() throws {
    let unknown = WireBytes()
      .varint(99, 300).fixed64(100, 1).string(101, "skip me").fixed32(102, 2)
    let content = WireBytes().raw(unknown.bytes).string(10, "CPU").raw(unknown.bytes)
    let widget = WireBytes()
      .raw(unknown.bytes).string(1, "cpu").message(3, content).raw(unknown.bytes)
    #expect(try Messages.widget.json(widget) == #"{"id":"cpu","content":{"label":"CPU"}}"#)
  }

  @Test func writesFieldsInNumberOrderWhateverTheWireOrder() throws {
    let wire = WireBytes()
      .varint(6, 2).message(3, WireBytes().string(13, "%").string(10, "CPU")).string(1, "cpu")
    #expect(
      try Messages.widget.json(wire)
        == #"{"id":"cpu","content":{"label":"CPU","unit":"%"},"updatedAtMs":"2"}"#)
  }

  @Test func keepsTheLastOfARepeatedSingularScalar() throws {
    let wire = WireBytes().string(1, "first").varint(4, 1).string(1, "last").varint(4, 2)
    #expect(try Messages.widget.json(wire) == #"{"id":"last","revision":"2"}"#)
  }

  @Test func keepsRepeatedValuesInWireOrderAcrossOtherFields() throws {
    let gauge = WireBytes()
      .string(5, "a").double(1, 1).string(5, "b").message(6, WireBytes().double(1, 2))
      .string(5, "c")
    let wire = WireBytes().message(3, WireBytes().message(1, gauge))
    #expect(
      try Messages.widget.json(wire)
        == #"{"content":{"gauge":{"value":1,"gradient":["a","b","c"],"marks":[{"value":2}]}}}"#)
  }

  @Test func mergesASingularMessageGivenInPieces() throws {
    let wire = WireBytes()
      .message(3, WireBytes().message(1, WireBytes().double(1, 1).string(5, "a")).string(10, "x"))
      .string(1, "cpu")
      .message(3, WireBytes().message(1, WireBytes().double(2, 0).string(5, "b")).string(10, "y"))
    #expect(
      try Messages.widget.json(wire)
        == #"{"id":"cpu","content":{"gauge":{"value":1,"minValue":0,"gradient":["a","b"]},"label":"y"}}"#
    )
  }

  @Test func writesMembersGivenOutOfOrderInNumberOrderWhateverTheirLength() throws {
    let long = String(repeating: "x", count: 200)
    let json = #"{"content": {"unit": "%", "label": "\#(long)"}, "name": "\#(long)", "id": "a"}"#
    let wire = WireBytes()
      .string(1, "a").string(2, long).message(3, WireBytes().string(10, long).string(13, "%"))
    #expect(wire.bytes.count > 400)
    #expect(try Messages.widget.binary(json) == wire.bytes)
  }

  @Test func writesNothingForEmptyOrNullRepeatedFields() throws {
    #expect(try Messages.subscribeRequest.binary(#"{"ids": [], "idPrefix": null}"#) == [])
    #expect(try HandBuiltDescriptors.scalars.binary(#"{"packedInts": [], "floats": null}"#) == [])
  }
}
