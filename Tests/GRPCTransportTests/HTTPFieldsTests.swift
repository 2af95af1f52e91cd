import Testing

@testable import GRPCTransport

@Suite struct HTTPFieldsTests {
  @Test func namesFoldToLowerCaseAndKeepTheirOrder() {
    var fields = HTTPFields()
    fields.append("Content-Type", "Application/JSON")
    fields.append("x-b", "1")
    fields.append("X-B", "2")
    #expect(fields.fields.map(\.name) == ["content-type", "x-b", "x-b"])
    #expect(fields["content-type"] == "Application/JSON")
    #expect(fields["x-b"] == "1")
    #expect(fields.values("x-b") == ["1", "2"])
    #expect(fields["x"] == nil)
    #expect(fields.count == 3)
  }

  @Test func piecesJoinTheFieldTheyBelongTo() {
    var fields = HTTPFields()
    fields.beginField()
    fields.appendToName("Ho".utf8)
    fields.appendToName("ST".utf8)
    fields.appendToValue("exa".utf8)
    fields.appendToValue("mple".utf8)
    fields.beginField()
    fields.appendToName("x-empty".utf8)
    #expect(fields == ["host": "example", "x-empty": ""])
    #expect(fields != ["host": "example", "x-empty": "no"])
    #expect(fields != ["host": "example"])
  }

  @Test func aValueCanBeWrittenInPlace() {
    var fields = HTTPFields()
    fields.append("etag") { $0 += Array("\"42\"".utf8) }
    fields.append("after", "x")
    #expect(fields["etag"] == "\"42\"")
    #expect(fields["after"] == "x")
  }

  @Test func serializersSeeTheBytes() {
    let fields: HTTPFields = ["a": "1", "b": "two"]
    var seen: [String] = []
    fields.forEachField { name, value in
      seen.append(
        String(decoding: name, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self))
      #expect(HTTPFields.name(name, is: "a") == (seen.count == 1))
    }
    #expect(seen == ["a=1", "b=two"])
  }
}
