import GRPCCore

/// gRPC-Web and the Connect protocol, for the same services gRPC serves:
/// one handler, many protocols, as connect-go has it. A request to a
/// method's path (`/gauge.v1.WidgetService/GetWidget`) that is not native
/// gRPC comes here; its body is taken apart into the method's messages,
/// the service's own handler runs the call through a `WebCall`, and the
/// answer is framed for the protocol the client spoke.
public final class WebRPCFace: Sendable {
  private let router: Router
  /// Every served method by path, resolved once: a call costs one lookup.
  private let methods: [String: WebMethod]
  private let maxMessageBytes: Int
  private let compressResponses: Bool

  /// `traits` and `jsonCodecs` are keyed by `/package.Service/Method`; a
  /// method without traits is taken as unary, one without a codec refuses
  /// Connect's JSON.
  public init(
    services: [any GRPCService], traits: [String: RPCMethodTraits],
    jsonCodecs: [String: any WebRPCJSONCodec], configuration: ServerConfiguration
  ) {
    self.router = Router(services: services)
    var methods: [String: WebMethod] = [:]
    for service in services {
      for name in service.methodNames {
        let path = "/\(service.serviceName)/\(name)"
        methods[path] = WebMethod(
          service: service, serviceName: service.serviceName, name: name, path: path,
          traits: traits[path] ?? RPCMethodTraits(), json: jsonCodecs[path])
      }
    }
    self.methods = methods
    self.maxMessageBytes = configuration.maxReceiveMessageBytes
    self.compressResponses = configuration.compressResponses
  }

  /// Whether the path names one of the services: the request is then this
  /// face's to answer, whatever its protocol turns out to be.
  public func serves(path: String) -> Bool {
    target(path: path) != nil
  }

  /// What a path names: a served method, a service's unknown method (still
  /// this face's to answer), or nil for a path outside every service.
  public func target(path: String) -> WebRPCTarget? {
    // Most requests that ask are for other faces (REST, pages): they are
    // told no by the service name, before any hashing.
    var path = path
    guard path.withUTF8({ router.namesService($0) }) else { return nil }
    if let method = methods[path] { return .method(method) }
    return .unknownMethod
  }

  /// The `route` label of a request to `path`: the method's path when the
  /// service has it, one label for all the rest, so made-up method names
  /// cannot make new series.
  public func routeLabel(path: String) -> String {
    target(path: path).map(Self.routeLabel) ?? "unknown method"
  }

  public static func routeLabel(_ target: WebRPCTarget) -> String {
    switch target {
    case .method(let method): method.path
    case .unknownMethod: "unknown method"
    }
  }

  /// The `face` label: which web protocol the request speaks.
  public static func faceLabel(_ request: HTTPRequest) -> String {
    let isGRPCWeb = request.headers.withValue(of: "content-type") { value in
      value.map { HTTPFields.text($0, startsWith: "application/grpc-web") } ?? false
    }
    return isGRPCWeb ? "grpc-web" : "connect"
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard let target = target(path: request.path) else {
      return exchange.respond(
        ProblemDetails(status: 404, detail: "no service is served at \(request.path)").response)
    }
    handle(request, target: target, exchange: exchange)
  }

  /// The same, for a caller that resolved the path already.
  public func handle(_ request: HTTPRequest, target: WebRPCTarget, exchange: any HTTPExchange) {
    let method: WebMethod? =
      switch target {
      case .method(let method): method
      case .unknownMethod: nil
      }
    let methodTraits = method?.traits ?? RPCMethodTraits()
    let allowed = methodTraits.sideEffectFree ? ["GET", "POST"] : ["POST"]
    switch request.method {
    case "POST":
      guard let kind = WebRPCProtocol.identify(contentType: request.headers["content-type"]) else {
        var problem = ProblemDetails(
          status: 415,
          detail:
            "content-type must be one of \(WebRPCProtocol.acceptedContentTypes), got "
            + "\"\(request.headers["content-type"] ?? "")\"")
        problem.headers.append("accept-post", WebRPCProtocol.acceptedContentTypes)
        return exchange.respond(problem.response)
      }
      start(kind, request: request, method: method, exchange: exchange)
    case "GET" where methodTraits.sideEffectFree:
      startGet(request, method: method, exchange: exchange)
    default:
      exchange.respond(ProblemDetails.methodNotAllowed(request.method, allowed: allowed).response)
    }
  }

  // MARK: Starting a call

  private func start(
    _ kind: WebRPCProtocol, request: HTTPRequest, method: WebMethod?, exchange: any HTTPExchange
  ) {
    let traits = method?.traits ?? RPCMethodTraits()
    let codec: WebRPCCodec? =
      switch kind {
      case .grpcWeb: nil
      case .connectUnary(let codec), .connectStreaming(let codec): codec
      }
    let json = codec == .json ? method?.json : nil
    let framing = WebResponseFraming(
      protocolKind: kind, json: json, compression: responseCompression(kind, request.headers))
    let refuse = { (status: GRPCStatus) in
      exchange.respond(
        framing.wholeResponse(
          status: status, metadata: Metadata(), trailers: Metadata(), body: [],
          deflater: { GzipDeflater() }))
    }
    guard let method else {
      return refuse(GRPCStatus(.unimplemented, "unknown method \(request.path)"))
    }
    if codec == .json, json == nil {
      return refuse(GRPCStatus(.unimplemented, "\(request.path) does not accept JSON"))
    }
    switch (kind, traits.isUnary) {
    case (.grpcWeb, _) where traits.clientStreams:
      return refuse(
        GRPCStatus(
          .unimplemented,
          "\(request.path) streams requests, which gRPC-Web cannot carry (browsers cannot "
            + "stream a request body); call it with gRPC or the Connect protocol"))
    case (.connectUnary, false):
      return refuse(
        GRPCStatus(
          .unimplemented,
          "\(request.path) is a streaming method: use application/connect+proto or "
            + "application/connect+json"))
    case (.connectStreaming, true):
      return refuse(
        GRPCStatus(
          .unimplemented,
          "\(request.path) is a unary method: use application/proto or application/json"))
    default:
      break
    }
    let deadline: Duration?
    let messages: [[UInt8]]
    do throws(GRPCStatus) {
      if codec != nil, let version = request.headers["connect-protocol-version"], version != "1" {
        throw GRPCStatus(
          .invalidArgument, "connect-protocol-version must be 1, got \"\(version)\"")
      }
      deadline = try Self.timeout(kind, request.headers)
      messages = try WebRequestBody(
        kind: kind, headers: request.headers, maxMessageBytes: maxMessageBytes, json: json
      ).messages(request.body)
    } catch {
      return refuse(error)
    }
    run(
      method, request: request, framing: framing, streamsResponse: traits.serverStreams,
      deadline: deadline, messages: messages, exchange: exchange, refuse: refuse)
  }

  /// Connect's GET: the message travels in the query, so the call can be
  /// repeated and cached.
  private func startGet(_ request: HTTPRequest, method: WebMethod?, exchange: any HTTPExchange) {
    let codec = WebRPCCodec(rawValue: request.queryValue("encoding") ?? "")
    let json = codec == .json ? method?.json : nil
    let kind = WebRPCProtocol.connectUnary(codec ?? .json)
    let framing = WebResponseFraming(
      protocolKind: kind, json: json, compression: responseCompression(kind, request.headers))
    let refuse = { (status: GRPCStatus) in
      exchange.respond(
        framing.wholeResponse(
          status: status, metadata: Metadata(), trailers: Metadata(), body: [],
          deflater: { GzipDeflater() }))
    }
    let messages: [[UInt8]]
    let deadline: Duration?
    do throws(GRPCStatus) {
      guard let method else {
        throw GRPCStatus(.unimplemented, "unknown method \(request.path)")
      }
      guard let codec else {
        throw GRPCStatus(.invalidArgument, "query parameter encoding must be json or proto")
      }
      if let version = request.queryValue("connect"), version != "v1" {
        throw GRPCStatus(.invalidArgument, "query parameter connect must be v1, got \(version)")
      }
      if codec == .json, json == nil {
        throw GRPCStatus(.unimplemented, "\(request.path) does not accept JSON")
      }
      deadline = try Self.timeout(kind, request.headers)
      messages = try WebRequestBody(
        kind: kind, headers: request.headers, maxMessageBytes: maxMessageBytes, json: json
      ).messages(fromQuery: request)
      run(
        method, request: request, framing: framing, streamsResponse: false, deadline: deadline,
        messages: messages, exchange: exchange, refuse: refuse)
    } catch {
      return refuse(error)
    }
  }

  private func run(
    _ method: WebMethod, request: HTTPRequest, framing: WebResponseFraming,
    streamsResponse: Bool, deadline: Duration?, messages: [[UInt8]], exchange: any HTTPExchange,
    refuse: (GRPCStatus) -> Void
  ) {
    let call = WebCall(
      exchange: exchange, framing: framing, streamsResponse: streamsResponse,
      maxMessageBytes: maxMessageBytes)
    call.run(
      method, metadata: Self.metadata(request.headers, memo: exchange.credentialMemo),
      deadline: deadline, messages: messages)
  }

  // MARK: Headers

  private func responseCompression(_ kind: WebRPCProtocol, _ headers: HTTPFields)
    -> CompressionAlgorithm
  {
    let accepted: String? =
      switch kind {
      case .grpcWeb: compressResponses ? headers["grpc-accept-encoding"] : nil
      case .connectUnary: headers["accept-encoding"]
      case .connectStreaming: headers["connect-accept-encoding"]
      }
    return CompressionAlgorithm.gzip.isAccepted(by: accepted) ? .gzip : .identity
  }

  private static func timeout(_ kind: WebRPCProtocol, _ headers: HTTPFields) throws(GRPCStatus)
    -> Duration?
  {
    switch kind {
    case .grpcWeb:
      guard let raw = headers["grpc-timeout"] else { return nil }
      guard let timeout = GRPCTimeout.parse(Array(raw.utf8)) else {
        throw GRPCStatus(.invalidArgument, "grpc-timeout \"\(raw)\" is malformed")
      }
      return timeout
    case .connectUnary, .connectStreaming:
      guard let raw = headers["connect-timeout-ms"] else { return nil }
      guard (1...10).contains(raw.utf8.count), raw.utf8.allSatisfy({ (48...57).contains($0) }),
        let milliseconds = Int64(raw)
      else {
        throw GRPCStatus(
          .invalidArgument, "connect-timeout-ms \"\(raw)\" must be 1 to 10 decimal digits")
      }
      return .milliseconds(milliseconds)
    }
  }

  /// What the handler sees of the request's fields: everything but the
  /// fields HTTP and the protocols themselves use; `-bin` values decoded.
  /// `memo` makes the `authorization` a connection repeats the same text.
  static func metadata(_ headers: HTTPFields, memo: CredentialMemo? = nil) -> Metadata {
    var metadata = Metadata()
    // Field names are lower case already (see `HTTPFields`).
    headers.forEachField { name, value in
      // The fields every call carries are passed over before any String
      // is made of them.
      guard !isProtocolField(name) else { return }
      if HTTPFields.name(name, is: "authorization") {
        let bytes = UnsafeRawBufferPointer(value)
        let text = memo?.text(of: bytes) ?? String(decoding: value, as: UTF8.self)
        return metadata.add(lowercaseKey: "authorization", .text(text))
      }
      let key = String(decoding: name, as: UTF8.self)
      guard !Metadata.isReserved(key) else { return }
      if key.hasSuffix("-bin") {
        guard let bytes = Base64.decode(value) else { return }
        metadata.add(key, .binary(bytes))
      } else {
        metadata.add(key, String(decoding: value, as: UTF8.self))
      }
    }
    return metadata
  }

  /// Fields of HTTP and of the web protocols themselves, not metadata.
  private static func isProtocolField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    HTTPFields.name(name, is: "content-type") || HTTPFields.name(name, is: "content-length")
      || HTTPFields.name(name, is: "content-encoding") || HTTPFields.name(name, is: "x-grpc-web")
      || HTTPFields.name(name, is: "x-user-agent") || HTTPFields.name(name, is: "user-agent")
      || HTTPFields.name(name, is: "te") || HTTPFields.text(name, startsWith: "connect-")
      || HTTPFields.text(name, startsWith: "grpc-")
  }
}

/// A served method as the face needs it, resolved once per server: a class,
/// so that passing it along a call is one reference, not a copy of its
/// existentials.
public final class WebMethod: Sendable {
  let service: any GRPCService
  let serviceName: String
  let name: String
  /// `/package.Service/Method`.
  public let path: String
  let traits: RPCMethodTraits
  let json: (any WebRPCJSONCodec)?

  init(
    service: any GRPCService, serviceName: String, name: String, path: String,
    traits: RPCMethodTraits, json: (any WebRPCJSONCodec)?
  ) {
    self.service = service
    self.serviceName = serviceName
    self.name = name
    self.path = path
    self.traits = traits
    self.json = json
  }
}

/// What a request's path names, for the web RPC face.
public enum WebRPCTarget: Sendable {
  case method(WebMethod)
  /// A served service's path with a method it does not have.
  case unknownMethod
}
