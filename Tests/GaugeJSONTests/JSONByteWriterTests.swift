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
}
