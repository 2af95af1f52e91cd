import GRPCTransport
import GaugeDomain
import GaugeJSON
import Testing

@testable import GaugeService

/// `?dry_run=true` answers as the write would and writes nothing.
@Suite struct RESTDryRunTests {
  let rest = RESTHarness()
  let mergePatch = "application/merge-patch+json"

  @Test func aDryPutAnswersAsACreateWouldAndStoresNothing() throws {
    _ = rest.send("PUT", "/widgets/other", json: #"{"content": {"template": "value", "value": 1}}"#)
    let answer = rest.send("PUT", "/widgets/error-rate?dry_run=true", json: seedPatch)
    #expect(answer.status == 201)
    #expect(answer.json?["content"]?["value"] == .number(2.4))
    // The revision the write would have taken, which it did not take.
    #expect(answer.headers["etag"] == "\"2\"")
    #expect(rest.send("GET", "/widgets/error-rate").status == 404)
    #expect(rest.store.snapshot().lastRevision == 1)
    #expect(rest.send("PUT", "/widgets/error-rate", json: seedPatch).headers["etag"] == "\"2\"")
  }

  @Test func aDryPatchOfTheValueChangesNothing() throws {
    _ = rest.send("PUT", "/widgets/error-rate", json: seedPatch)
    let moved = rest.send(
      "PATCH", "/widgets/error-rate?dry_run=true", json: #"{"content": {"value": 4}}"#,
      contentType: mergePatch)
    #expect(moved.status == 200)
    #expect(moved.json?["content"]?["value"] == .number(4))
    #expect(moved.json?["content"]?["label"] == .string("Errors"))
    #expect(try rest.store.get(id: "error-rate").content.template.mainValue == 2.4)
    #expect(rest.store.snapshot().lastRevision == 1)
  }

  @Test func aDryRunIsRefusedAsTheWriteWouldBe() throws {
    _ = rest.send("PUT", "/widgets/error-rate", json: seedPatch)
    let refused = rest.send(
      "PATCH", "/widgets/error-rate?dry_run=true", json: #"{"content": {"value": 7}}"#,
      contentType: mergePatch)
    #expect(refused.status == 422)
    #expect(refused.problemErrors == ["content.value: 7 is outside [0, 5]"])
    let stale = rest.send(
      "PUT", "/widgets/error-rate?dry_run=true", json: seedPatch, headers: ["if-match": "\"9\""])
    #expect(stale.status == 412)
    let bad = rest.send("PUT", "/widgets/error-rate?dry_run=yes", json: seedPatch)
    #expect(bad.status == 422)
    #expect(bad.problemErrors == [#"dry_run: "yes" is neither true nor false"#])
    #expect(rest.send("PUT", "/widgets/x?dry_run=false", json: seedPatch).status == 201)
    #expect(rest.store.snapshot().lastRevision == 2)
  }
}
