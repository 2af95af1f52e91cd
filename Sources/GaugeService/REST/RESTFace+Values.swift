import GRPCTransport
import GaugeDomain
import GaugeJSON
import WidgetJSON

/// `POST /values`: many widgets' values in one request, each line accepted
/// or rejected on its own, as PublishValues does over gRPC.
extension RESTFace {
  private static let valuesBody = [
    "application/x-ndjson", "application/json", "text/plain",
  ]

  func setValues(_ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    let format: RESTValueLines.Format =
      try request.bodyMediaType(Self.valuesBody) == "text/plain" ? .plainText : .ndjson
    let (items, unreadable) = RESTValueLines.parse(try request.bodyText(), format: format)
    let refused = items.isEmpty ? [] : store.setValues(items.map(\.update))

    var rejections: [(line: Int, id: String?, status: Int, detail: String)] = unreadable.map {
      ($0.line, $0.id, 400, $0.detail)
    }
    for rejection in refused {
      let item = items[rejection.offset]
      let problem = RESTProblem(rejection.error)
      rejections.append((item.line, item.update.id, problem.status, problem.details.detail))
    }
    rejections.sort { $0.line < $1.line }

    let accepted = items.count - refused.count
    let body: JSONValue = .object([
      ("accepted", .number(Double(accepted))),
      ("rejected", .number(Double(rejections.count))),
      ("rejections", .array(rejections.map(Self.json))),
    ])
    let response = Self.jsonResponse(200, body)
    return accepted > 0 ? .whenDurable(response) : .now(response)
  }

  private static func json(_ rejection: (line: Int, id: String?, status: Int, detail: String))
    -> JSONValue
  {
    var members: [(key: String, value: JSONValue)] = [("line", .number(Double(rejection.line)))]
    if let id = rejection.id { members.append(("id", .string(id))) }
    members.append(("status", .number(Double(rejection.status))))
    members.append(("detail", .string(rejection.detail)))
    return .object(members)
  }
}
