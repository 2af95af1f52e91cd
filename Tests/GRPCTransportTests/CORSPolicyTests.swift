import Testing

@testable import GRPCTransport

/// The decisions of `CORSPolicy` and the origin form it is configured with.
@Suite struct CORSPolicyTests {
  private let dash = "https://dash.example.com"

  private func listed(_ origins: String...) throws -> CORSPolicy {
    try CORSPolicy(origins: origins)
  }

  private func preflight(
    origin: String?, method: String? = "PATCH", headers: [String] = [], verb: String = "OPTIONS"
  ) -> HTTPRequest {
    var fields = HTTPFields()
    if let origin { fields.append("origin", origin) }
    if let method { fields.append("access-control-request-method", method) }
    for value in headers { fields.append("access-control-request-headers", value) }
    return HTTPRequest(method: verb, path: "/widgets/cpu", headers: fields)
  }

  @Test func exactOriginsAndTheWildcardAreTakenAsGiven() throws {
    #expect(
      try listed(dash, "http://127.0.0.1:8080").origins == .listed([dash, "http://127.0.0.1:8080"]))
    #expect(try listed("*").origins == .any)
    #expect(try listed("*", "*").origins == .any)
    #expect(try listed("http://[::1]:3000").origins == .listed(["http://[::1]:3000"]))
  }

  @Test func theWildcardStandsAlone() {
    #expect(throws: CORSPolicy.ConfigurationError.wildcardWithOrigins) {
      try CORSPolicy(origins: ["*", dash])
    }
    #expect(throws: CORSPolicy.ConfigurationError.noOrigins) { try CORSPolicy(origins: []) }
  }

  @Test(arguments: [
    ("dash.example.com", "not scheme://host[:port]"),
    ("https://dash.example.com/", "leave out \"/\""),
    ("https://dash.example.com/app?x", "leave out \"/app?x\""),
    ("HTTPS://dash.example.com", "lower-case scheme"),
    ("https://Dash.example.com", "lower case (dash.example.com)"),
    ("https://", "missing its host"),
    ("://dash", "missing its scheme"),
    ("https://user@dash", "no user name"),
    ("https://dash:0", "not a port"),
    ("https://dash:65536", "not a port"),
    ("https://dash:080", "not a port"),
    ("https://dash:+80", "not a port"),
    ("https://dash:", "not a port"),
    ("https://dash:443", "default port 443"),
    ("http://dash:80", "default port 80"),
    ("https://da sh", "not a host"),
    ("https://[::1", "not a host"),
    ("null", "not scheme://host[:port]"),
  ])
  func anOriginNoBrowserSendsIsRefusedSayingWhy(text: String, says: String) {
    let problem = WebOrigin.problem(text)
    #expect(problem?.contains(says) == true, "\(text): \(problem ?? "accepted")")
    #expect(throws: CORSPolicy.ConfigurationError.self) { try CORSPolicy(origins: [text]) }
  }

  @Test func originsBrowsersSendAreAccepted() {
    for origin in [
      dash, "http://localhost:5173", "https://dash.example.com:8443", "http://10.0.0.7",
      "http://[fe80::1]:8080", "chrome-extension://abcdefgh", "https://xn--bcher-kva.example",
    ] {
      #expect(WebOrigin.problem(origin) == nil, "\(origin)")
    }
  }

  @Test func aListedOriginIsGrantedWithCredentialsAndTheExposedFields() throws {
    let fields = try listed(dash).responseFields(origin: dash)
    #expect(fields["access-control-allow-origin"] == dash)
    #expect(fields["access-control-allow-credentials"] == "true")
    #expect(fields["vary"] == "origin")
    let exposed = try #require(fields["access-control-expose-headers"])
      .split(separator: ",").map { $0.trimmingOptionalWhitespace() }
    #expect(
      exposed == [
        "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-encoding",
        "grpc-accept-encoding", "connect-content-encoding", "connect-accept-encoding",
        "content-encoding", "etag", "location", "retry-after",
      ])
  }

  @Test func anotherOriginOrNoneGetsOnlyVary() throws {
    let policy = try listed(dash)
    #expect(policy.responseFields(origin: "https://evil.example") == ["vary": "origin"])
    #expect(policy.responseFields(origin: "https://dash.example.com:8443") == ["vary": "origin"])
    #expect(policy.responseFields(origin: nil) == ["vary": "origin"])
  }

  @Test func theWildcardGrantsAnyOriginWithoutCredentials() throws {
    let fields = try listed("*").responseFields(origin: "https://anyone.example")
    #expect(fields["access-control-allow-origin"] == "*")
    #expect(fields["access-control-allow-credentials"] == nil)
    #expect(fields["access-control-expose-headers"] != nil)
    #expect(try listed("*").responseFields(origin: nil) == ["vary": "origin"])
  }

  @Test func aPreflightFromAListedOriginIsAnsweredWithWhatItAsked() throws {
    let response = try #require(
      try listed(dash).preflightResponse(
        to: preflight(origin: dash, headers: ["content-type, x-grpc-web", " connect-timeout-ms "])))
    #expect(response.status == 204)
    #expect(response.body.isEmpty)
    #expect(
      response.headers == [
        "access-control-allow-origin": dash,
        "access-control-allow-credentials": "true",
        "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
        "access-control-allow-headers": "content-type, x-grpc-web, connect-timeout-ms",
        "access-control-max-age": "7200",
        "vary": "origin",
      ])
  }

  @Test func aPreflightAskingNoHeadersIsAllowedNone() throws {
    let response = try #require(try listed("*").preflightResponse(to: preflight(origin: dash)))
    #expect(response.headers["access-control-allow-origin"] == "*")
    #expect(response.headers["access-control-allow-credentials"] == nil)
    #expect(response.headers["access-control-allow-headers"] == nil)
  }

  @Test func onlyAPreflightFromAnAllowedOriginIsAnswered() throws {
    let policy = try listed(dash)
    #expect(policy.preflightResponse(to: preflight(origin: "https://evil.example")) == nil)
    #expect(policy.preflightResponse(to: preflight(origin: nil)) == nil)
    #expect(policy.preflightResponse(to: preflight(origin: dash, method: nil)) == nil)
    #expect(policy.preflightResponse(to: preflight(origin: dash, verb: "GET")) == nil)
  }
}
