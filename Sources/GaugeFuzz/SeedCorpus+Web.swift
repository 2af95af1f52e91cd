/// Seeds for the web faces: requests as curl, browsers' `EventSource` and
/// scripts send them, and the shapes request smuggling is made of.
extension SeedCorpus {
  /// What the REST documentation's PATCH example sends.
  static let examplePatch = """
    {"content": {"template": "gauge", "value": 2.4, "min_value": 0, "max_value": 5, "unit": "%",\
     "label": "Errors", "subtitle": "api-gateway · last 5m · SLO 1.0%",\
     "icon": "chart.line.uptrend.xyaxis", "accent_color": "red"}}
    """

  static let cpuWidget = """
    {"id": "cpu", "name": "CPU load", "content": {"template": "gauge", "value": 42.5,\
     "min_value": 0, "max_value": 100, "style": "circular", "gradient": ["#00FF00", "#FF0000"],\
     "marks": [{"value": 80, "label": "hot"}], "label": "all cores", "trend": "up",\
     "accent_color": "orange"}}
    """

  /// A request with a body and its `content-length`.
  /// `GetWidgetRequest { id: "cpu" }`.
  static let getCPU = "\u{0A}\u{03}cpu"

  /// gRPC's five-byte prefix, which gRPC-Web and Connect's envelopes share,
  /// for a message of single-byte characters.
  static func framed(_ message: String) -> String {
    "\0\0\0\0" + String(UnicodeScalar(UInt8(message.utf8.count))) + message
  }

  static func request(
    _ method: String, _ target: String, type: String? = nil, body: String = "",
    fields: [String] = []
  ) -> String {
    var head = ["\(method) \(target) HTTP/1.1", "Host: gauged"] + fields
    if let type { head.append("Content-Type: \(type)") }
    if !body.isEmpty || type != nil { head.append("Content-Length: \(body.utf8.count)") }
    return head.joined(separator: "\r\n") + "\r\n\r\n" + body
  }

  /// `[limits, cuts, (cut offset, clock step)...]` then the bytes: see
  /// `HTTP1Harness.run`.
  static func http1Input(
    _ text: String, limits: UInt8 = 0, cuts: [(at: UInt16, tenthsOfSeconds: UInt8)] = []
  ) -> [UInt8] {
    var bytes: [UInt8] = [limits, UInt8(cuts.count)]
    for cut in cuts {
      bytes += [UInt8(cut.at & 0xFF), UInt8(cut.at >> 8), cut.tenthsOfSeconds]
    }
    return bytes + Array(text.utf8)
  }

  static var http1Inputs: [(name: String, bytes: [UInt8])] {
    let chunkedValues =
      "POST /values HTTP/1.1\r\nHost: gauged\r\nContent-Type: application/x-ndjson\r\n"
      + "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
      + "1b\r\n{\"id\": \"cpu\", \"value\": 61}\n\r\n"
      + "1e\r\n{\"id\": \"missing\", \"value\": 1}\n\r\n0\r\n\r\n"
    return [
      (
        "put-and-patch",
        http1Input(
          request("PUT", "/widgets/cpu", type: "application/json", body: cpuWidget)
            + request(
              "PATCH", "/widgets/cpu", type: "application/merge-patch+json", body: examplePatch,
              fields: ["If-Match: \"1001\""])
            + request("GET", "/widgets/cpu", fields: ["Connection: close"]),
          cuts: [(40, 1)])
      ),
      (
        "pipelined-gets",
        http1Input(
          request("GET", "/") + request("GET", "/widgets?prefix=c&page_size=2")
            + request("HEAD", "/widgets") + request("OPTIONS", "/widgets/cpu")
            + request("GET", "/widgets/missing") + request("GET", "/nowhere")
            + request("DELETE", "/widgets/cpu", fields: ["If-Match: *"])
            + request("POST", "/widgets/cpu"),
          limits: 0x04, cuts: [(20, 0), (90, 0), (200, 2)])
      ),
      (
        "chunked-values",
        http1Input(
          request("PUT", "/widgets/cpu", type: "application/json", body: cpuWidget) + chunkedValues
            + request("POST", "/values", type: "text/plain", body: "cpu 12\ncpu 500\nnope x\n"),
          cuts: [(300, 0), (400, 0)])
      ),
      (
        "events-resume",
        http1Input(
          request("PUT", "/widgets/cpu", type: "application/json", body: cpuWidget)
            + request(
              "GET", "/widgets/events?ids=cpu&min_interval_ms=100",
              fields: ["Accept: text/event-stream", "Last-Event-ID: 1000"])
            + request("POST", "/values", type: "text/plain", body: "cpu 70\n"),
          cuts: [(300, 3), (420, 50)])
      ),
      (
        "events-http10",
        http1Input(
          "GET /widgets/events?prefix=c HTTP/1.0\r\n\r\n"
            + request("HEAD", "/widgets/events", fields: ["Last-Event-ID: x"]))
      ),
      (
        "smuggle-length-and-chunked",
        http1Input(
          "POST /values HTTP/1.1\r\nHost: gauged\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            + request("GET", "/widgets"))
      ),
      (
        "smuggle-two-lengths",
        http1Input(
          "POST /values HTTP/1.1\r\nHost: gauged\r\nContent-Length: 7\r\nContent-Length: 0\r\n"
            + "\r\ncpu 1\n" + request("GET", "/"))
      ),
      (
        "smuggle-obs-fold",
        http1Input(
          "GET / HTTP/1.1\r\nHost: gauged\r\nX-Note: a\r\n Transfer-Encoding: chunked\r\n\r\n"
            + request("GET", "/"))
      ),
      (
        "smuggle-bare-cr",
        http1Input("GET / HTTP/1.1\rHost: gauged\r\n\r\n" + request("GET", "/"))
      ),
      (
        "smuggle-coding-not-chunked",
        http1Input(
          "POST /values HTTP/1.1\r\nHost: gauged\r\nTransfer-Encoding: gzip, chunked\r\n"
            + "Content-Type: text/plain\r\n\r\n6\r\ncpu 1\n\r\n0\r\n\r\n")
      ),
      (
        "slow-head-tight-limits",
        http1Input(
          request("PUT", "/widgets/big", type: "application/json", body: cpuWidget)
            + "GET /widgets HTTP/1.1\r\nHost: ga",
          limits: 0x0F, cuts: [(300, 5), (330, 20)])
      ),
      (
        "grpc-web-unary-and-text",
        http1Input(
          request(
            "POST", "/gauge.v1.WidgetService/GetWidget", type: "application/grpc-web+proto",
            body: framed(getCPU), fields: ["X-Grpc-Web: 1", "Grpc-Timeout: 2S"])
            + request(
              "POST", "/gauge.v1.WidgetService/GetWidget", type: "application/grpc-web-text",
              body: "AAAAAAU=CgNjcHU=")
            + request(
              "POST", "/gauge.v1.WidgetService/PublishValues", type: "application/grpc-web",
              body: framed("\u{0A}\u{03}cpu\u{11}\0\0\0\0\0\0\u{F0}?")))
      ),
      (
        "connect-unary-get-and-stream",
        http1Input(
          request(
            "POST", "/gauge.v1.WidgetService/GetWidget", type: "application/proto", body: getCPU)
            + request(
              "GET",
              "/gauge.v1.WidgetService/ListWidgets?connect=v1&encoding=proto&base64=1&message=EgI",
              fields: ["Connect-Timeout-Ms: 100"])
            + request(
              "POST", "/gauge.v1.WidgetService/Subscribe", type: "application/connect+proto",
              body: framed("\u{12}\u{01}c"), fields: ["Connect-Protocol-Version: 1"]),
          cuts: [(200, 2)])
      ),
      (
        "grpc-over-http1",
        http1Input(
          request("POST", "/gauge.v1.WidgetService/GetWidget", type: "application/grpc")
            + request("HEAD", "/widgets", type: "application/grpc+proto"))
      ),
    ]
  }

  static let restDocuments = [
    examplePatch,
    cpuWidget,
    #"{"name": null, "content": {"subtitle": null, "marks": null, "value": 3, "trend": "down"}}"#,
    #"{"content": {"template": "progress", "value": 0.5, "label": null}}"#,
    #"{"content": {"value": "high", "style": "dial", "gradient": [1], "marks": [{"x": 1}]}}"#,
    #"{"id": "other", "content": {"template": "value", "value": 1e308, "min_value": 2}}"#,
    """
    {"id":"gauge","name":"GAUGE","content":{"template":"gauge","value":42,"min_value":0,\
    "max_value":100,"style":"accessory_circular"},"revision":3,"created_at":"2025-11-24T16:00:00Z",\
    "updated_at":"2025-11-24T16:00:00Z"}
    """,
    "{\"id\": \"gauge\", \"value\": 50}\n{\"id\": \"progress\", \"value\": 2}\n"
      + "{\"id\": \"value\", \"value\": -41}\nnot json\n",
    "[1, 2]",
  ]
}
