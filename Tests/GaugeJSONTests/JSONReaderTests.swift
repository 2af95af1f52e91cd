import Testing

@testable import GaugeJSON

@Suite struct JSONReaderTests {
  /// `body` on a reader of `text`.
  private func reading<Result>(
    _ text: String, _ body: (inout JSONReader) throws -> Result
  ) throws -> Result {
    try Array(text.utf8).withUnsafeBytes { bytes in
      var reader = JSONReader(bytes)
      return try body(&reader)
    }
  }

  @Test func readsMembersAndElementsInOrderWithoutATree() throws {
    let seen = try reading(#" {"a": [1, -2.5e1, "x"], "b\u0021": {"t": true, "n": null}} "#) {
      reader in
      var seen: [String] = []
      #expect(try reader.nextKind() == .object)
      try reader.beginObject()
      while let key = try reader.nextMember() {
        seen.append("key " + key.value)
        switch try reader.nextKind() {
        case .array:
          try reader.beginArray()
          while try reader.nextElement() {
            switch try reader.nextKind() {
            case .number:
              let number = try reader.number()
              seen.append("number \(number.value) integer \(number.isInteger)")
            case .string: seen.append("string " + (try reader.string().value))
            default: Issue.record("unexpected element")
            }
          }
        case .object:
          try reader.beginObject()
          while let inner = try reader.nextMember() {
            seen.append("key " + inner.value)
            if try reader.nextKind() == .bool {
              seen.append("bool \(try reader.bool())")
            } else {
              try reader.null()
              seen.append("null")
            }
          }
        default: Issue.record("unexpected member")
        }
      }
      try reader.finish()
      return seen
    }
    #expect(
      seen == [
        "key a", "number 1.0 integer true", "number -25.0 integer false", "string x", "key b!",
        "key t", "bool true", "key n", "null",
      ])
  }

  @Test func givesStringsAsWrittenAndDecoded() throws {
    try reading(#""plain" "tab\t\u00e9\ud83d\ude00\/""#) { reader in
      let plain = try reader.string()
      #expect(!plain.hasEscapes && plain.offset == 0)
      #expect(Array("plain".utf8).withUnsafeBytes { plain.equals($0) })
      _ = try reader.nextKind()
      let escaped = try reader.string()
      #expect(escaped.hasEscapes && escaped.offset == 8)
      #expect(escaped.value == "tab\té😀/")
      #expect(Array("tab\té😀/".utf8).withUnsafeBytes { escaped.equals($0) })
      #expect(!Array("tab".utf8).withUnsafeBytes { escaped.equals($0) })
      var bytes: [UInt8] = [0]
      escaped.append(to: &bytes)
      #expect(bytes == [0] + Array("tab\té😀/".utf8))
    }
  }

  @Test func keepsANumbersTextForExactIntegers() throws {
    try reading("[18446744073709551615, -0, 12345678901234567, 1e2]") { reader in
      try reader.beginArray()
      var texts: [String] = []
      var values: [Double] = []
      while try reader.nextElement() {
        _ = try reader.nextKind()
        let number = try reader.number()
        texts.append(String(decoding: number.text, as: UTF8.self))
        values.append(number.value)
      }
      #expect(texts == ["18446744073709551615", "-0", "12345678901234567", "1e2"])
      #expect(values == [18_446_744_073_709_551_616, 0, 12_345_678_901_234_568, 100])
      #expect(values[1].sign == .minus)
    }
  }

  @Test(arguments: [
    ("{\"a\" 1}", "line 1, column 6: expected \":\" after the member name, found \"1\""),
    ("[1 2]", "line 1, column 4: expected \",\" or \"]\" in the array, found \"2\""),
    (
      "{\"a\": 1 \"b\": 2}", "line 1, column 9: expected \",\" or \"}\" in the object, found \"\"\""
    ),
    ("\n  x", "line 2, column 3: expected a value, found \"x\""),
  ])
  func failsAsTheParserFails(input: String, message: String) throws {
    let failure = try reading(input) { reader -> JSONParser.Error? in
      do throws(JSONParser.Error) {
        switch try reader.nextKind() {
        case .object:
          try reader.beginObject()
          while try reader.nextMember() != nil {
            _ = try reader.nextKind()
            _ = try reader.number()
          }
        case .array:
          try reader.beginArray()
          while try reader.nextElement() {
            _ = try reader.nextKind()
            _ = try reader.number()
          }
        default: break
        }
        return nil
      } catch {
        return error
      }
    }
    #expect(failure?.description == message)
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse(input) }
  }
}
