import GRPCCore
import GRPCTransport
import GRPCTransportTesting
import GaugeDomain
import GaugeJSON
import GaugeService
import WidgetJSON

/// Runs an input as the body of the REST face's writes: `PUT` of a new
/// widget and over a stored one, `PATCH` (merge patch) of a stored widget
/// of each template and of a missing one, and `POST /values`, each against
/// a fresh store holding one widget of each template.
///
/// Beyond crashes, a run fails when:
/// - an answer's status is not one its route answers;
/// - an error answer is not a well-formed problem+json whose `errors`
///   each name a field;
/// - a widget answer does not read back through the REST reader as the
///   widget the store holds (same name, same content, its revision);
/// - a refused write (or a `/values` batch with nothing accepted) changed
///   the store;
/// - the store holds a widget that validation would refuse.
public enum RESTJSONHarness {
  struct Write {
    let method: String
    let id: String?
    let contentType: String
    /// What the route answers: RESTFace's outcomes, RESTProblem's
    /// mapping of store errors, and the body checks.
    let statuses: Set<Int>

    var target: String { id.map { "/widgets/\($0)" } ?? "/values" }
  }

  static let storedIDs = ["gauge", "progress", "value"]

  static let writes: [Write] =
    [
      Write(
        method: "PUT", id: "x", contentType: "application/json",
        statuses: [200, 201, 400, 412, 415, 422, 503]),
      Write(
        method: "PUT", id: "gauge", contentType: "application/json",
        statuses: [200, 201, 400, 412, 415, 422, 503]),
    ]
    + (storedIDs + ["x"]).map {
      Write(
        method: "PATCH", id: $0, contentType: "application/merge-patch+json",
        statuses: [200, 201, 400, 404, 409, 412, 415, 422, 503])
    } + [
      Write(
        method: "POST", id: nil, contentType: "application/x-ndjson",
        statuses: [200, 400, 415, 503])
    ]

  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    for write in writes { try run(write, body: data) }
  }

  static func run(_ write: Write, body: [UInt8]) throws(FuzzFinding) {
    let store = try storedWidgets()
    let face = RESTFace(store: store)
    let before = store.snapshot()
    let exchange = RecordingHTTPExchange()
    face.handle(
      HTTPRequest(
        method: write.method, target: write.target, headers: ["content-type": write.contentType],
        body: body),
      exchange: exchange)
    let what = "\(write.method) \(write.target)"
    guard exchange.responses.count == 1, let response = exchange.responses.first else {
      throw FuzzFinding("\(what) got \(exchange.responses.count) answers, not one")
    }
    guard write.statuses.contains(response.status) else {
      throw FuzzFinding("\(what) answered \(response.status), which it never should")
    }
    let after = store.snapshot()
    let unchanged = after.widgets == before.widgets && after.lastRevision == before.lastRevision
    if response.status >= 400 {
      try ProblemCheck.verify(
        status: response.status, contentType: response.headers["content-type"],
        body: response.body, what: what)
      if !unchanged { throw FuzzFinding("\(what) was refused with \(response.status) yet wrote") }
    } else if let id = write.id {
      try verifyWidgetAnswer(response, id: id, store: store, what: what)
    } else {
      try verifyValuesAnswer(response, storeUnchanged: unchanged, what: what)
    }
    try StoreCheck.verify(store)
  }

  /// A store holding one widget of each template, every optional field set
  /// on the gauge, so that patches have something to clear.
  static func storedWidgets() throws(FuzzFinding) -> InMemoryWidgetStore {
    let store = InMemoryWidgetStore(clock: { 1_764_000_000_000 })
    let contents: [ContentPatch] = [
      SeedCorpus.gaugeContent,
      ContentPatch(template: .progress(ProgressPatch(value: 0.25)), label: "jobs"),
      ContentPatch(
        template: .value(PlainValuePatch(value: 21.5, minValue: -40, maxValue: 60)), unit: "°C"),
    ]
    for (id, content) in zip(storedIDs, contents) {
      do {
        _ = try store.put(WidgetPut(id: id, name: id.uppercased(), content: content))
      } catch {
        throw FuzzFinding("the stored widget \(id) is refused: \(error)")
      }
    }
    return store
  }

  /// A widget answer is the widget the store now holds, written so that
  /// the REST reader reads it back as the same widget.
  private static func verifyWidgetAnswer(
    _ response: HTTPResponse, id: String, store: InMemoryWidgetStore, what: String
  ) throws(FuzzFinding) {
    let stored: Widget
    do {
      stored = try store.get(id: id)
    } catch {
      throw FuzzFinding("\(what) answered \(response.status) but the store has no \(id): \(error)")
    }
    guard response.headers["etag"] == "\"\(stored.revision)\"" else {
      throw FuzzFinding(
        "\(what): etag \(response.headers["etag"] ?? "none") is not \(stored.revision)")
    }
    let text = String(decoding: response.body, as: UTF8.self)
    let json: JSONValue
    do {
      json = try JSONParser.parse(text)
    } catch {
      throw FuzzFinding("\(what): the answer \(text) is not JSON: \(error)")
    }
    guard case .number(let revision)? = json["revision"], revision == Double(stored.revision) else {
      throw FuzzFinding("\(what): the answer's revision is not \(stored.revision): \(text)")
    }
    let put: WidgetPut
    switch RESTWidgetReader.replacement(json, id: id) {
    case .success(let read): put = read
    case .failure(let invalid):
      let problems = invalid.violations.map { "\($0.field): \($0.description)" }
      throw FuzzFinding("\(what): the answer \(text) does not read back: \(problems)")
    }
    let again: Widget
    do {
      again = try InMemoryWidgetStore().put(put).widget
    } catch {
      throw FuzzFinding("\(what): the answer \(text) reads back as a refused widget: \(error)")
    }
    guard again.name == stored.name, again.content == stored.content else {
      throw FuzzFinding("\(what): the answer \(text) reads back as another widget")
    }
  }

  private static func verifyValuesAnswer(
    _ response: HTTPResponse, storeUnchanged: Bool, what: String
  ) throws(FuzzFinding) {
    let text = String(decoding: response.body, as: UTF8.self)
    guard let json = try? JSONParser.parse(text), case .number(let accepted)? = json["accepted"],
      case .number(let rejected)? = json["rejected"],
      case .array(let rejections)? = json["rejections"], Double(rejections.count) == rejected
    else {
      throw FuzzFinding("\(what): the answer \(text) is not a values summary")
    }
    for rejection in rejections {
      guard case .number? = rejection["line"], case .number(let status)? = rejection["status"],
        (400..<600).contains(status), case .string(let detail)? = rejection["detail"],
        !detail.isEmpty
      else {
        throw FuzzFinding("\(what): a rejection in \(text) lacks its line, status or detail")
      }
    }
    if accepted == 0, !storeUnchanged {
      throw FuzzFinding("\(what) accepted no value yet wrote: \(text)")
    }
  }
}
