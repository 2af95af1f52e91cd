import Testing

@testable import ProtoJSON

@Suite struct ScalarMappingTests {
  private let scalars = HandBuiltDescriptors.scalars

  @Test func writesEachScalarType() throws {
    let wire = WireBytes()
      .float(1, 0.1).varint(2, 5).varint(3, UInt64.max).fixed32(4, UInt32.max)
      .fixed64(5, UInt64.max).fixed32(6, UInt32.max).fixed64(7, UInt64.max - 1)
      .bytes(8, [0, 1, 2, 0xFF, 0xFE]).int32(11, -1).varint(12, UInt64(UInt32.max))
      .varint(13, 1).varint(17, UInt64(bitPattern: Int64.min)).varint(18, UInt64.max)
    #expect(
      try scalars.json(wire)
        == #"{"floatValue":0.1,"sint32Value":-3,"sint64Value":"-9223372036854775808","#
        + #""fixed32Value":4294967295,"fixed64Value":"18446744073709551615","sfixed32Value":-1,"#
        + #""sfixed64Value":"-2","bytesValue":"AAEC//4=","int32Value":-1,"#
        + #""uint32Value":4294967295,"boolValue":true,"int64Value":"-9223372036854775808","#
        + #""uint64Value":"18446744073709551615"}"#)
    #expect(
      try scalars.binary(
        #"{"floatValue":0.1,"sint32Value":-3,"sint64Value":"-9223372036854775808","#
          + #""fixed32Value":4294967295,"fixed64Value":"18446744073709551615","sfixed32Value":-1,"#
          + #""sfixed64Value":"-2","bytesValue":"AAEC//4=","int32Value":-1,"#
          + #""uint32Value":4294967295,"boolValue":true,"int64Value":"-9223372036854775808","#
          + #""uint64Value":"18446744073709551615"}"#) == wire.bytes)
  }

  @Test(arguments: [
    (Float(0.1), "0.1"), (3, "3"), (-0.0, "-0"), (1e20, "1e+20"), (1.5e-10, "1.5e-10"),
    (.greatestFiniteMagnitude, "3.4028235e+38"), (.nan, #""NaN""#), (.infinity, #""Infinity""#),
    (-.infinity, #""-Infinity""#),
  ])
  func writesFloatsAsTheShortestTextOfTheFloat(value: Float, text: String) throws {
    #expect(try scalars.json(WireBytes().float(1, value)) == #"{"floatValue":\#(text)}"#)
    #expect(try scalars.binary(#"{"floatValue":\#(text)}"#) == WireBytes().float(1, value).bytes)
  }

  @Test func writesDoublesAndTheirSpecialValues() throws {
    let wire = WireBytes()
      .key(14, 2).raw([56]).raw(
        [Double.nan, .infinity, -.infinity, -0.0, 1.5, 0.1, 1e300].flatMap { value in
          withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        })
    let json = #"{"packedDoubles":["NaN","Infinity","-Infinity",-0,1.5,0.1,1e+300]}"#
    #expect(try scalars.json(wire) == json)
    #expect(try scalars.binary(json) == wire.bytes)
    #expect(
      try scalars.binary(#"{"packedDoubles":["1.5","-2e3","0.1","-0"]}"#)
        == WireBytes().key(14, 2).raw([32]).raw(
          [1.5, -2000, 0.1, -0.0].flatMap { (value: Double) in
            withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
          }
        ).bytes)
  }

  @Test func writesRepeatedNumbersPackedOnlyWhenTheFieldSaysSo() throws {
    let json = #"{"packedInts":[1,-1,300],"sint64s":["-2",3],"floats":[0.5]}"#
    let wire = WireBytes()
      .key(9, 2).raw([13, 1] + [UInt8](repeating: 0xFF, count: 9) + [0x01, 0xAC, 0x02])
      .varint(10, 3).varint(10, 6).float(15, 0.5)
    #expect(try scalars.binary(json) == wire.bytes)
    #expect(
      try scalars.json(wire) == #"{"packedInts":[1,-1,300],"sint64s":["-2","3"],"floats":[0.5]}"#)
  }

  @Test func readsPackedAndUnpackedEncodingsOfAnyRepeatedNumber() throws {
    let wire = WireBytes()
      .int32(9, 7).key(9, 2).raw([2, 1, 2]).int32(9, 8)
      .key(10, 2).raw([2, 1, 2]).varint(10, 4)
      .key(15, 2).raw([0]).key(14, 2).raw([0])
    #expect(try scalars.json(wire) == #"{"packedInts":[7,1,2,8],"sint64s":["-1","1","2"]}"#)
  }

  @Test func readsBytesInEitherBase64AlphabetWithOrWithoutPadding() throws {
    let data: [UInt8] = [0, 1, 2, 0xFF, 0xFE]
    for text in ["AAEC//4=", "AAEC//4", "AAEC__4=", "AAEC__4"] {
      #expect(try scalars.binary(#"{"bytesValue":"\#(text)"}"#) == WireBytes().bytes(8, data).bytes)
    }
    let blobs = #"{"blobs":["","Zg==","Zm8=","Zm9v"]}"#
    let wire = WireBytes().bytes(20, []).bytes(20, Array("f".utf8)).bytes(20, Array("fo".utf8))
      .bytes(20, Array("foo".utf8))
    #expect(try scalars.binary(blobs) == wire.bytes)
    #expect(try scalars.json(wire) == blobs)
  }

  @Test(arguments: [
    (#"{"bytesValue":"A"}"#, "bytesValue", "is not valid base64"),
    (#"{"bytesValue":"AA=A"}"#, "bytesValue", "is not valid base64"),
    (#"{"bytesValue":"AAA=="}"#, "bytesValue", "is not valid base64"),
    (#"{"bytesValue":"AA AA"}"#, "bytesValue", "is not valid base64"),
    (#"{"bytesValue":[0]}"#, "bytesValue", "must be a base64 string"),
    (#"{"floatValue":1e39}"#, "floatValue", "is out of range for float"),
    (#"{"floatValue":"-1e39"}"#, "floatValue", "is out of range for float"),
    (#"{"sint32Value":-2147483649}"#, "sint32Value", "is out of range for sint32"),
    (#"{"fixed32Value":-1}"#, "fixed32Value", "is out of range for fixed32"),
    (#"{"sfixed64Value":"9223372036854775808"}"#, "sfixed64Value", "is out of range for sfixed64"),
    (#"{"packedInts":[1,"x"]}"#, "packedInts[1]", "must be an integer"),
    (#"{"packedInts":[1,null]}"#, "packedInts[1]", "must not be null"),
    (#"{"child":{"child":{"sint64s":{}}}}"#, "child.child.sint64s", "must be an array"),
  ])
  func refusesValuesOutsideTheirType(json: String, field: String, rule: String) {
    #expect(scalars.jsonError(json) == ProtoJSONError(field: field, rule: rule))
  }

  @Test func readsIntegersFromNumbersAndDecimalStrings() throws {
    let json =
      #"{"int32Value":"-5","uint32Value":1e2,"int64Value":-9007199254740991,"uint64Value":"007"}"#
    let wire = WireBytes()
      .int32(11, -5).varint(12, 100).varint(17, UInt64(bitPattern: -9_007_199_254_740_991))
      .varint(18, 7)
    #expect(try scalars.binary(json) == wire.bytes)
  }

  @Test func namesTheElementOfAPackedFieldThatEndsEarly() {
    let wire = WireBytes().key(14, 2).raw([12]).raw([UInt8](repeating: 0, count: 12))
    #expect(
      scalars.binaryError(wire)
        == ProtoJSONError(
          field: "packedDoubles[1]", rule: "is not valid protobuf: it ends inside a field"))
  }
}
