import GRPCCore
import GRPCTransport
import GRPCTransportTesting
import GaugeDomain
import GaugeJSON
import Testing

@testable import GaugeService

/// A REST face on an in-memory store, and helpers to call it.
struct RESTHarness {
  let store = InMemoryWidgetStore(clock: { 1_796_161_932_123 })
  var face: RESTFace { RESTFace(store: store) }

  /// Sends one request and returns the one answer it got.
  func send(
    _ method: String, _ target: String, json body: String? = nil,
    contentType: String = "application/json", headers: HTTPFields = HTTPFields()
  ) -> HTTPResponse {
    var fields = headers
    if body != nil { fields.append("content-type", contentType) }
    let request = HTTPRequest(
      method: method, target: target, headers: fields, body: Array((body ?? "").utf8))
    let exchange = RecordingHTTPExchange()
    face.handle(request, exchange: exchange)
    #expect(exchange.responses.count == 1)
    return exchange.responses.first ?? HTTPResponse(status: 0)
  }
}

extension HTTPResponse {
  var json: JSONValue? {
    try? JSONParser.parse(String(decoding: body, as: UTF8.self))
  }

  /// The `errors` of a problem body as (field, detail) pairs.
  var problemErrors: [String] {
    guard case .array(let errors)? = json?["errors"] else { return [] }
    return errors.compactMap {
      guard case .string(let field)? = $0["field"], case .string(let detail)? = $0["detail"]
      else { return nil }
      return "\(field): \(detail)"
    }
  }
}

let seedPatch = """
  {
    "content": {
      "template": "gauge",
      "value": 2.4,
      "min_value": 0,
      "max_value": 5,
      "unit": "%",
      "label": "Errors",
      "subtitle": "api-gateway · last 5m · SLO 1.0%",
      "icon": "chart.line.uptrend.xyaxis",
      "accent_color": "red"
    }
  }
  """
