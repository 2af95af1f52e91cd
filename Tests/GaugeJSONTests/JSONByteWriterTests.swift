import Testing

@testable import GaugeJSON

@Suite struct JSONByteWriterTests {
  @Test func writesWhatTheValueWriterWrites() throws {
    var writer = JSONByteWriter()
    writer.beginObject()
    writer.member("id", "cpu")
    writer.member("text", "tab\there \"quoted\" \u{1} \u{9B} é 😀")
    writer.member("absent", nil as String?)
    writer.key("list")
    writer.beginArray()
    writer.number(1.5)
    writer.beginObject()
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.string("x")
    writer.endArray()
    writer.member("whole", number: 42)
    writer.key("numbers")
    writer.beginArray()
    for number in [-7, 0, 1e300, -1e300, 9_007_199_254_740_992, 9_007_199_254_740_994, -0.5, 1e-7] {
      writer.number(number)
    }
    writer.endArray()
    writer.key("nested")
    writer.beginObject()
    writer.member("a", number: -0.0)
    writer.endObject()
    writer.endObject()
    let text = String(decoding: writer.bytes, as: UTF8.self)
    let value = try JSONParser.parse(text)
    #expect(JSONWriter.compact(value) == text)
    #expect(value["absent"] == nil)
    #expect(value["text"] == .string("tab\there \"quoted\" \u{1} \u{9B} é 😀"))
  }

  @Test func writesPreparedKeysAndStringsGivenAsBytesAsItWritesStrings() {
    let texts = ["plain", "tab\there \"quoted\" \u{1} \u{9B} é 😀", ""]
    var fromBytes = JSONByteWriter()
    fromBytes.beginObject()
    for (index, text) in texts.enumerated() {
      fromBytes.key(JSONByteWriter.Key("k\(index)"))
      Array(text.utf8).withUnsafeBytes { fromBytes.string(utf8: $0) }
    }
    fromBytes.endObject()
    fromBytes.beginObject()
    fromBytes.key(JSONByteWriter.Key("tab\t"))
    fromBytes.integer(1)
    fromBytes.endObject()
    let quoted = texts.map(JSONWriter.quoted)
    #expect(
      String(decoding: fromBytes.bytes, as: UTF8.self)
        == "{\"k0\":\(quoted[0]),\"k1\":\(quoted[1]),\"k2\":\(quoted[2])}{\"tab\\t\":1}")
    #expect(quoted[1] == #""tab\there \"quoted\" \u0001 \u009b é 😀""#)
  }

  @Test func appendsDecimalDigits() {
    var bytes: [UInt8] = []
    for value: UInt64 in [0, 7, 10, 1234, UInt64.max] {
      JSONByteWriter.appendDecimal(value, to: &bytes)
      bytes.append(UInt8(ascii: " "))
    }
    #expect(String(decoding: bytes, as: UTF8.self) == "0 7 10 1234 18446744073709551615 ")
  }
}
