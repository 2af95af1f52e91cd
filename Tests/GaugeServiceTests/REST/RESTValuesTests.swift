import GRPCTransport
import GaugeDomain
import GaugeJSON
import Testing

@testable import GaugeService

@Suite struct RESTValuesTests {
  let rest = RESTHarness()

  init() {
    _ = rest.send(
      "PUT", "/widgets/cpu",
      json: #"{"content": {"template": "gauge", "value": 1, "min_value": 0, "max_value": 100}}"#)
  }

  @Test func goodLinesApplyAndBadOnesAreReportedWithTheirStatus() throws {
    let body = """
      {"id": "cpu", "value": 57}
      {"id": "gpu", "value": 1}

      {"id": "cpu", "value": 500}
      not json
      {"id": "cpu", "value": 58}
      """
    let response = rest.send("POST", "/values", json: body, contentType: "application/x-ndjson")
    #expect(response.status == 200)
    let json = try #require(response.json)
    #expect(json["accepted"] == .number(2))
    #expect(json["rejected"] == .number(3))
    guard case .array(let rejections)? = json["rejections"] else {
      Issue.record("no rejections")
      return
    }
    #expect(rejections.map { $0["line"] } == [.number(2), .number(4), .number(5)])
    #expect(rejections.map { $0["status"] } == [.number(404), .number(422), .number(400)])
    #expect(rejections[1]["id"] == .string("cpu"))
    #expect(rejections[1]["detail"] == .string("content.value: 500 is outside [0, 100]"))
    #expect(try rest.store.get(id: "cpu").content.template.mainValue == 58)
  }

  @Test func plainTextLinesAreIDAndValue() throws {
    let response = rest.send(
      "POST", "/values", json: "# comment\ncpu 12\ncpu twelve\n", contentType: "text/plain")
    #expect(response.json?["accepted"] == .number(1))
    #expect(response.json?["rejections"]?.arrayCount == 1)
    #expect(try rest.store.get(id: "cpu").content.template.mainValue == 12)
  }

  @Test func otherMediaTypesAreRefused() {
    #expect(rest.send("POST", "/values", json: "cpu 1", contentType: "text/csv").status == 415)
    #expect(rest.send("GET", "/values").status == 405)
  }
}
