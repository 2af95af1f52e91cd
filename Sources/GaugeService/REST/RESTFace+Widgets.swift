import GRPCTransport
import GaugeDomain
import GaugeJSON
import WidgetJSON

/// `/widgets` and `/widgets/{id}`.
extension RESTFace {
  private static let jsonBody = ["application/json"]
  private static let mergePatchBody = ["application/merge-patch+json", "application/json"]
  /// How often a merge patch that depends on the stored template is read
  /// and tried again when another writer changed the widget in between.
  private static let patchAttempts = 4

  func get(id: String) throws(RESTProblem) -> RESTOutcome {
    .now(Self.widgetResponse(try perform { () throws(WidgetError) in try store.get(id: id) }))
  }

  func list(_ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    var query = ListQuery(
      idPrefix: request.queryValue("prefix") ?? "",
      pageToken: request.queryValue("page_token") ?? "")
    if let size = request.queryValue("page_size") {
      guard let pageSize = Int32(size) else {
        throw RESTProblem(
          invalid: [
            FieldViolation(
              field: "page_size", description: "must be an integer, got \(JSONWriter.quoted(size))")
          ])
      }
      query.pageSize = pageSize
    }
    let page = try perform { () throws(WidgetError) in try store.list(query) }
    var writer = JSONByteWriter(capacity: 64 + 320 * page.widgets.count)
    writer.beginObject()
    writer.key("widgets")
    writer.beginArray()
    for widget in page.widgets { RESTWidgetJSON.write(widget, into: &writer) }
    writer.endArray()
    // Always there: empty on the last page.
    writer.member("next_page_token", page.nextPageToken)
    writer.endObject()
    return .now(
      HTTPResponse(status: 200, headers: Self.jsonContentType, body: writer.bytes))
  }

  func create(_ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    _ = try request.bodyMediaType(Self.jsonBody)
    let put = try RESTWidgetReader.replacement(try request.bodyJSON(), id: nil).get()
    let (widget, _) = try perform { () throws(WidgetError) in
      try store.put(put, precondition: .absent)
    }
    return .whenDurable(Self.widgetResponse(widget, created: true))
  }

  func replace(id: String, _ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    _ = try request.bodyMediaType(Self.jsonBody)
    let precondition = try request.writePrecondition
    let put = try RESTWidgetReader.replacement(try request.bodyJSON(), id: id).get()
    let (widget, created) = try perform { () throws(WidgetError) in
      try store.put(put, precondition: precondition)
    }
    return .whenDurable(Self.widgetResponse(widget, created: created))
  }

  /// RFC 7396 merge patch. Template fields sent without `template` apply
  /// to the stored widget's template: it is read first, and the write
  /// then requires the revision read, so a concurrent change (even a
  /// template switch) makes it read again instead of patching the wrong
  /// template.
  func patch(id: String, _ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    _ = try request.bodyMediaType(Self.mergePatchBody)
    let asked = try request.writePrecondition
    // A producer's value, `{"content": {"value": N}}`: set on whatever the
    // widget is, in one step, as PublishValues does. An unknown id goes the
    // general way, which says what a new widget would need.
    if asked == .none, let value = ValueOnlyPatch.value(in: request.body) {
      do throws(WidgetError) {
        return .whenDurable(Self.widgetResponse(try store.setValue(value, id: id)))
      } catch .notFound {
      } catch {
        throw RESTProblem(error)
      }
    }
    let json = try request.bodyJSON()
    for _ in 0..<Self.patchAttempts {
      var storedKind: TemplateKind?
      var precondition = asked
      let needsStored = RESTContentFields.needsStoredTemplate(json["content"])
      let stored = needsStored || asked != .none ? try? store.get(id: id) : nil
      // Preconditions are judged before the request (RFC 9110 section 13.2.2).
      if stored == nil, asked != .none, asked != .absent {
        throw RESTProblem(.preconditionFailed(id: id, currentRevision: nil))
      }
      if needsStored, let stored {
        if case .revision(let expected) = asked, expected != stored.revision {
          throw RESTProblem(.preconditionFailed(id: id, currentRevision: stored.revision))
        }
        storedKind = stored.content.template.kind
        precondition = .revision(stored.revision)
      }
      let patch = try RESTWidgetReader.mergePatch(json, id: id, storedKind: storedKind).get()
      do throws(WidgetError) {
        let (widget, created) = try store.update(patch.update, precondition: precondition)
        return .whenDurable(Self.widgetResponse(widget, created: created))
      } catch .preconditionFailed where precondition != asked {
        continue  // changed since it was read: read it again
      } catch {
        throw RESTProblem(error, clearPaths: patch.clearPaths)
      }
    }
    throw RESTProblem(409, "widget \(JSONWriter.quoted(id)) kept changing while being patched")
  }

  func delete(id: String, _ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    let precondition = try request.writePrecondition
    try perform { () throws(WidgetError) in try store.delete(id: id, precondition: precondition) }
    return .whenDurable(HTTPResponse(status: 204))
  }

  /// Runs a store call, turning its error into a problem.
  private func perform<Result>(_ body: () throws(WidgetError) -> Result) throws(RESTProblem)
    -> Result
  {
    do throws(WidgetError) {
      return try body()
    } catch {
      throw RESTProblem(error)
    }
  }

  static let jsonContentType: HTTPFields = ["content-type": "application/json"]

  static func widgetResponse(_ widget: Widget, created: Bool = false) -> HTTPResponse {
    var headers = HTTPFields()
    headers.append("etag") { value in
      value.append(UInt8(ascii: "\""))
      JSONByteWriter.appendDecimal(widget.revision, to: &value)
      value.append(UInt8(ascii: "\""))
    }
    if created { headers.append("location", "/widgets/\(widget.id)") }
    headers.append("content-type", "application/json")
    return HTTPResponse(
      status: created ? 201 : 200, headers: headers, body: RESTWidgetJSON.bytes(widget))
  }

  static func jsonResponse(_ status: Int, _ json: JSONValue, headers: HTTPFields = HTTPFields())
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, contentType: "application/json", body: JSONWriter.compact(json),
      headers: headers)
  }
}

extension Result where Failure == RESTInvalid {
  /// The value, or the 422 that lists every violation.
  fileprivate func get() throws(RESTProblem) -> Success {
    switch self {
    case .success(let value): value
    case .failure(let invalid): throw RESTProblem(invalid)
    }
  }
}
