import GaugeJSON
import Testing
import WidgetJSON

@Suite struct ValueOnlyPatchTests {
  @Test(arguments: [
    #"{"content":{"value":57}}"#, #" { "content" : { "value" : -0.25e+2 } } "#,
    "{\"content\":{\"value\":0}}\n", #"{"content":{"value":1.5E3}}"#,
  ])
  func readsWhatTheJSONReaderReads(body: String) throws {
    let parsed = try JSONParser.parse(body)
    guard case .number(let expected)? = parsed["content"]?["value"] else {
      Issue.record("not a value patch: \(body)")
      return
    }
    #expect(ValueOnlyPatch.value(in: Array(body.utf8)) == expected)
  }

  @Test(arguments: [
    #"{"content":{"value":057}}"#, #"{"content":{"value":+5}}"#, #"{"content":{"value":1.}}"#,
    #"{"content":{"value":"5"}}"#, #"{"content":{"value":5,"unit":"%"}}"#,
    #"{"content":{"value":5}"#, #"{"name":"x","content":{"value":5}}"#,
    #"{"content":{"value":1e999}}"#, #"{"content":{"value":5}}x"#,
  ])
  func leavesEverythingElseToTheJSONReader(body: String) {
    #expect(ValueOnlyPatch.value(in: Array(body.utf8)) == nil)
  }
}
