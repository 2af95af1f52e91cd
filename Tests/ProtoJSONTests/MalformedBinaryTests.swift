import Testing

@testable import ProtoJSON

@Suite struct MalformedBinaryTests {
  @Test(arguments: [
    (WireBytes().raw([0x80]), "", "is not valid protobuf: it ends inside a varint"),
    (WireBytes().raw([0x20, 0x80]), "revision", "is not valid protobuf: it ends inside a varint"),
    (
      WireBytes().key(4, 0).raw([UInt8](repeating: 0xFF, count: 10) + [0x01]), "revision",
      "is not valid protobuf: a varint is longer than ten bytes"
    ),
    (
      WireBytes().key(1, 2).raw([5, UInt8(ascii: "a"), UInt8(ascii: "b")]), "id",
      "is not valid protobuf: a length of 5 runs past the end"
    ),
    (WireBytes().varint(1, 1), "id", "has wire type 0, but a string field has 2"),
    (WireBytes().string(4, "7"), "revision", "has wire type 2, but a uint64 field has 0"),
    (
      WireBytes().message(3, WireBytes().message(1, WireBytes().fixed32(2, 0))),
      "content.gauge.minValue", "has wire type 5, but a double field has 1"
    ),
    (
      WireBytes().message(3, WireBytes().message(1, WireBytes().key(1, 1).raw([0, 0, 0]))),
      "content.gauge.value", "is not valid protobuf: it ends inside a field"
    ),
    (
      WireBytes().message(
        3, WireBytes().message(1, WireBytes().string(5, "ok").bytes(5, [0xC3, 0x28]))),
      "content.gauge.gradient[1]", "is not valid UTF-8"
    ),
    (WireBytes().raw([0x00, 0x01]), "", "is not valid protobuf: field number 0 is out of range"),
    (
      WireBytes().key(9, 3), "",
      "is not valid protobuf: field 9 has wire type 3 (a group, which protobuf-c does not support)"
    ),
    (WireBytes().key(9, 7), "", "is not valid protobuf: field 9 has wire type 7 (unknown)"),
    (
      WireBytes().key(99, 2).raw([3, 0]), "",
      "is not valid protobuf: a length of 3 runs past the end"
    ),
  ])
  func namesWhereTheBytesGoWrong(wire: WireBytes, field: String, rule: String) {
    #expect(Messages.widget.binaryError(wire) == ProtoJSONError(field: field, rule: rule))
  }

  @Test func namesTheElementOfARepeatedMessage() {
    let badMark = WireBytes().string(1, "half")
    let gauge = WireBytes().message(6, SampleWire.marks[0]).message(6, badMark)
    let widget = WireBytes().message(3, WireBytes().message(1, gauge))
    let list = WireBytes().message(1, SampleWire.progressWidget).message(1, widget)
    #expect(
      Messages.listWidgetsResponse.binaryError(list)
        == ProtoJSONError(
          field: "widgets[1].content.gauge.marks[1].value",
          rule: "has wire type 2, but a double field has 1"))
  }
}
