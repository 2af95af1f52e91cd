import GRPCTransport
import GaugeDomain
import GaugeJSON
import Testing
import WidgetJSON

@testable import GaugeService

@Suite struct RESTWidgetTests {
  let rest = RESTHarness()

  @Test func theSeedPagePatchCreatesThenRejectsAValueAboveMax() throws {
    let created = rest.send(
      "PATCH", "/widgets/error-rate", json: seedPatch, contentType: "application/merge-patch+json")
    #expect(created.status == 201)
    #expect(created.headers["location"] == "/widgets/error-rate")
    #expect(created.headers["content-type"] == "application/json")
    let json = try #require(created.json)
    #expect(created.headers["etag"] == "\"1\"")
    #expect(json["content"]?["template"] == .string("gauge"))
    #expect(json["content"]?["value"] == .number(2.4))
    #expect(json["content"]?["style"] == .string("automatic"))
    #expect(json["content"]?["subtitle"] == .string("api-gateway · last 5m · SLO 1.0%"))
    #expect(json["created_at"] == .string("2026-12-01T21:52:12.123Z"))
    #expect(json["content"]?["trend"] == nil)

    let rejected = rest.send(
      "PATCH", "/widgets/error-rate", json: #"{"content": {"value": 7}}"#,
      contentType: "application/merge-patch+json")
    #expect(rejected.status == 422)
    #expect(rejected.headers["content-type"] == "application/problem+json")
    let problem = try #require(rejected.json)
    #expect(problem["status"] == .number(422))
    #expect(rejected.problemErrors == ["content.value: 7 is outside [0, 5]"])
    #expect(problem["detail"] == .string("content.value: 7 is outside [0, 5]"))
    #expect(try rest.store.get(id: "error-rate").content.template.mainValue == 2.4)
  }

  @Test func putCreatesThenReplacesAndGetReadsBack() throws {
    let body = #"{"name": "CPU", "content": {"template": "progress", "value": 0.5}}"#
    #expect(rest.send("PUT", "/widgets/cpu", json: body).status == 201)
    let replaced = rest.send(
      "PUT", "/widgets/cpu",
      json: #"{"id": "cpu", "content": {"template": "value", "value": 9, "trend": "up"}}"#)
    #expect(replaced.status == 200)
    let got = rest.send("GET", "/widgets/cpu")
    #expect(got.status == 200)
    #expect(got.headers["etag"] == "\"2\"")
    #expect(got.json?["name"] == .string(""))
    #expect(got.json?["content"]?["trend"] == .string("up"))
    #expect(got.json?["content"]?["template"] == .string("value"))
  }

  @Test func unknownFieldsWrongTypesAndNamesAreEachNamed() {
    let response = rest.send(
      "PUT", "/widgets/a",
      json: """
        {"id": "b", "colour": 1, "content": {"template": "gauge", "value": "3", "min_value": 0,
         "max_value": 5, "colour": "red", "style": "round", "trend": "sideways",
         "marks": [{"value": 1, "size": 2}]}}
        """)
    #expect(response.status == 422)
    #expect(
      response.problemErrors == [
        "id: \"b\" differs from the id in the path, \"a\"",
        "colour: is not a field of a widget",
        "content.value: must be a number, got a string",
        "content.colour: is not a field of a gauge widget",
        "content.style: \"round\" is not a style (automatic, linear_capacity, accessory_linear, accessory_linear_capacity, accessory_circular, accessory_circular_capacity, circular, linear)",
        "content.trend: \"sideways\" is not a trend (up, down or flat)",
        "content.marks[0].size: is not a field of a mark",
      ])
    #expect(rest.store.snapshot().widgets.isEmpty)
  }

  @Test func fieldsOfAnotherTemplateAndDomainPathsUseRESTNames() {
    let wrongField = rest.send(
      "PUT", "/widgets/p",
      json: #"{"content": {"template": "progress", "value": 0.5, "style": "linear"}}"#)
    #expect(wrongField.problemErrors == ["content.style: is not a field of a progress widget"])
    let marks = rest.send(
      "PUT", "/widgets/g",
      json:
        #"{"content": {"template": "gauge", "value": 1, "min_value": 0, "max_value": 5, "marks": [{"value": 1}, {"value": 9}]}}"#
    )
    #expect(marks.problemErrors == ["content.marks[1].value: 9 is outside [0, 5]"])
    let noTemplate = rest.send("PUT", "/widgets/g", json: #"{"content": {"value": 1}}"#)
    #expect(
      noTemplate.problemErrors == ["content.template: is required (gauge, progress or value)"])
  }

  @Test func mergePatchNullClearsAndRequiredFieldsCannotBeCleared() throws {
    _ = rest.send("PATCH", "/widgets/error-rate", json: seedPatch)
    let cleared = rest.send(
      "PATCH", "/widgets/error-rate", json: #"{"content": {"subtitle": null, "unit": null}}"#)
    #expect(cleared.status == 200)
    let content = try rest.store.get(id: "error-rate").content
    #expect(content.subtitle == nil)
    #expect(content.unit == nil)
    #expect(content.label == "Errors")

    let refused = rest.send(
      "PATCH", "/widgets/error-rate",
      json: #"{"content": {"max_value": null, "label": null}}"#)
    #expect(refused.status == 422)
    #expect(refused.problemErrors == ["content.max_value: is required and cannot be cleared"])
    #expect(try rest.store.get(id: "error-rate").content.label == "Errors")

    let noContent = rest.send("PATCH", "/widgets/error-rate", json: #"{"content": null}"#)
    #expect(noContent.problemErrors == ["content: is required and cannot be cleared"])
  }

  @Test func templateFieldsWithoutTemplateApplyToTheStoredOne() throws {
    _ = rest.send(
      "PUT", "/widgets/v", json: #"{"content": {"template": "value", "value": 1, "min_value": 0}}"#)
    let patched = rest.send(
      "PATCH", "/widgets/v", json: #"{"content": {"value": 4, "min_value": null}}"#)
    #expect(patched.status == 200)
    #expect(try rest.store.get(id: "v").content.template == .value(PlainValue(value: 4)))
    let style = rest.send("PATCH", "/widgets/v", json: #"{"content": {"style": "linear"}}"#)
    #expect(style.problemErrors == ["content.style: is not a field of a value widget"])
  }

  @Test func aTemplateSwitchReplacesTheTemplate() throws {
    _ = rest.send("PATCH", "/widgets/error-rate", json: seedPatch)
    let switched = rest.send(
      "PATCH", "/widgets/error-rate", json: #"{"content": {"template": "progress", "value": 0.3}}"#)
    #expect(switched.status == 200)
    let content = try rest.store.get(id: "error-rate").content
    #expect(content.template == .progress(Progress(value: 0.3)))
    #expect(content.label == "Errors")
  }

  @Test func aPatchWithoutTemplateOnAnUnknownWidgetSaysTheTemplateIsMissing() {
    let response = rest.send("PATCH", "/widgets/new", json: #"{"content": {"value": 1}}"#)
    #expect(response.status == 422)
    #expect(response.problemErrors.first?.hasPrefix("content.template: is required") == true)
  }

  @Test func ifMatchGuardsWrites() throws {
    _ = rest.send("PATCH", "/widgets/error-rate", json: seedPatch)
    let stale = rest.send(
      "PATCH", "/widgets/error-rate", json: #"{"content": {"value": 1}}"#,
      headers: ["if-match": "\"7\""])
    #expect(stale.status == 412)
    #expect(
      stale.json?["detail"] == .string("widget \"error-rate\" has changed: its revision is now 1"))
    let fresh = rest.send(
      "PUT", "/widgets/error-rate",
      json: #"{"content": {"template": "progress", "value": 1}}"#, headers: ["if-match": "\"1\""])
    #expect(fresh.status == 200)
    #expect(fresh.headers["etag"] == "\"2\"")
    #expect(
      rest.send("DELETE", "/widgets/error-rate", headers: ["if-match": "\"1\""]).status == 412)
    #expect(rest.send("DELETE", "/widgets/nope", headers: ["if-match": "*"]).status == 412)
    #expect(rest.send("DELETE", "/widgets/error-rate", headers: ["if-match": "*"]).status == 204)
    #expect(rest.store.snapshot().widgets.isEmpty)
  }

  @Test func postCreatesOnceThenConflicts() {
    let body = #"{"id": "cpu", "content": {"template": "progress", "value": 0.5}}"#
    let created = rest.send("POST", "/widgets", json: body)
    #expect(created.status == 201)
    #expect(created.headers["location"] == "/widgets/cpu")
    let again = rest.send("POST", "/widgets", json: body)
    #expect(again.status == 409)
    #expect(again.json?["detail"] == .string("widget \"cpu\" already exists"))
  }

  @Test func listPagesByPrefix() throws {
    for id in ["a1", "a2", "a3", "b1"] {
      _ = rest.send(
        "PUT", "/widgets/\(id)", json: #"{"content": {"template": "progress", "value": 0}}"#)
    }
    let first = rest.send("GET", "/widgets?prefix=a&page_size=2")
    #expect(first.status == 200)
    guard case .array(let widgets)? = first.json?["widgets"],
      case .string(let token)? = first.json?["next_page_token"]
    else {
      Issue.record("no page in \(String(decoding: first.body, as: UTF8.self))")
      return
    }
    #expect(widgets.map { $0["id"] } == [.string("a1"), .string("a2")])
    let second = rest.send("GET", "/widgets?prefix=a&page_size=2&page_token=\(token)")
    #expect(second.json?["widgets"]?.arrayCount == 1)
    #expect(second.json?["next_page_token"] == .string(""))
    #expect(
      rest.send("GET", "/widgets?page_size=x").problemErrors == [
        "page_size: must be an integer, got \"x\""
      ])
  }

  @Test func errorsOfTheProtocolAreProblems() {
    #expect(rest.send("GET", "/widgets/nope").status == 404)
    #expect(rest.send("GET", "/widgets/a/b").status == 404)
    let notAllowed = rest.send("POST", "/widgets/a")
    #expect(notAllowed.status == 405)
    #expect(notAllowed.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS")
    let options = rest.send("OPTIONS", "/values")
    #expect(options.status == 204)
    #expect(options.headers["allow"] == "POST, OPTIONS")
    #expect(rest.send("GET", "/widgets/a", headers: ["accept": "text/html"]).status == 406)
    #expect(rest.send("GET", "/widgets", headers: ["accept": "text/html, */*;q=0.1"]).status == 200)
    #expect(rest.send("PUT", "/widgets/a", json: "{}", contentType: "text/plain").status == 415)
    let malformed = rest.send("PUT", "/widgets/a", json: "{\n  \"name\": }")
    #expect(malformed.status == 400)
    #expect(malformed.json?["detail"]?.stringValue?.contains("line 2, column") == true)
  }

  @Test func theIDInThePathIsPercentDecoded() {
    _ = rest.send(
      "PUT", "/widgets/a-b", json: #"{"content": {"template": "progress", "value": 0}}"#)
    #expect(rest.send("GET", "/widgets/a%2Db").status == 200)
    #expect(rest.send("HEAD", "/widgets/a%2Db").status == 200)
  }

  @Test func handlesOnlyItsPaths() {
    #expect(RESTFace.handles(path: "/widgets"))
    #expect(RESTFace.handles(path: "/widgets/cpu"))
    #expect(RESTFace.handles(path: "/values"))
    #expect(!RESTFace.handles(path: "/widgets/events"))
    #expect(!RESTFace.handles(path: "/"))
  }

  @Test func timesAreRFC3339WithMilliseconds() {
    #expect(RFC3339Time.format(unixMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
    #expect(RFC3339Time.format(unixMilliseconds: 951_782_400_001) == "2000-02-29T00:00:00.001Z")
    #expect(RFC3339Time.format(unixMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
    #expect(RFC3339Time.format(unixMilliseconds: 1_796_161_932_123) == "2026-12-01T21:52:12.123Z")
    // The last instant of year 9999, then years whose width is not four.
    #expect(
      RFC3339Time.format(unixMilliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    #expect(
      RFC3339Time.format(unixMilliseconds: 253_402_300_800_000) == "10000-01-01T00:00:00.000Z")
    #expect(
      RFC3339Time.format(unixMilliseconds: -62_167_219_200_001) == "-0001-12-31T23:59:59.999Z")
  }
}

extension JSONValue {
  var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }

  var arrayCount: Int? {
    if case .array(let elements) = self { elements.count } else { nil }
  }
}
