import GRPCClient
import GRPCCore
import GaugeDomain
import GaugeIO
import GaugeWire

/// gauge.v1.WidgetService over one blocking connection, for the commands
/// that make a few calls and exit. Every failure is a `CLIError` with the
/// exit code it deserves.
final class WidgetClient {
  private let options: GlobalOptions
  private let client: BlockingGRPCClient

  static let service = "/gauge.v1.WidgetService/"

  init(_ options: GlobalOptions) throws(CLIError) {
    self.options = options
    do {
      client = try BlockingGRPCClient(
        address: options.server, configuration: options.clientConfiguration,
        connectTimeout: options.timeout)
    } catch {
      throw Self.unreachable(options, error)
    }
  }

  deinit {
    client.close()
  }

  static func unreachable(_ options: GlobalOptions, _ error: IOError) -> CLIError {
    .unreachable("cannot reach gauged at \(options.serverText): \(error)")
  }

  func put(_ put: WidgetPut) throws(CLIError) -> (widget: Widget, created: Bool) {
    let bytes = try call(
      "PutWidget", WidgetWire.encodePutWidgetRequest(put), doing: "put \(put.id ?? "")")
    return try decode(bytes, WidgetWire.decodePutWidgetResponse)
  }

  func update(_ update: WidgetUpdate) throws(CLIError) -> Widget {
    let bytes = try call(
      "UpdateWidget", WidgetWire.encodeUpdateWidgetRequest(update),
      doing: "set \(update.id ?? "")")
    return try decode(bytes, WidgetWire.decodeWidgetResponse)
  }

  /// `action` names the command in errors ("set cpu" when `set` reads first).
  func get(id: String, doing action: String? = nil) throws(CLIError) -> Widget {
    let bytes = try call(
      "GetWidget", WidgetWire.encodeGetWidgetRequest(id: id), doing: action ?? "get \(id)")
    return try decode(bytes, WidgetWire.decodeWidgetResponse)
  }

  /// Every widget whose id starts with `prefix`, page after page.
  func list(prefix: String) throws(CLIError) -> [Widget] {
    var widgets: [Widget] = []
    var token = ""
    repeat {
      let bytes = try call(
        "ListWidgets",
        WidgetWire.encodeListWidgetsRequest(
          ListQuery(idPrefix: prefix, pageSize: 1000, pageToken: token)),
        doing: "ls")
      let page = try decode(bytes, WidgetWire.decodeListWidgetsResponse)
      widgets += page.widgets
      token = page.nextPageToken
    } while !token.isEmpty
    return widgets
  }

  func delete(id: String) throws(CLIError) {
    _ = try call("DeleteWidget", WidgetWire.encodeDeleteWidgetRequest(id: id), doing: "rm \(id)")
  }

  /// A PublishValues stream; it has a deadline only when `--timeout` was given.
  func publishStream() -> BlockingRequestStream {
    client.requestStream(
      path: Self.service + "PublishValues", metadata: options.metadata,
      timeout: options.timeoutGiven ? options.timeout : nil)
  }

  static let tokenService = "/gauge.v1.TokenService/"

  func createToken(
    name: String, scope: Scope, prefix: String, expiresInMs: Int64?,
    writeRatePerSecond: UInt32? = nil, writeBurst: UInt32? = nil
  ) throws(CLIError) -> (token: TokenWire.Listed, secret: String) {
    let request = TokenWire.encodeCreateTokenRequest(
      name: name, scope: scope, prefix: prefix, expiresInMs: expiresInMs,
      writeRatePerSecond: writeRatePerSecond, writeBurst: writeBurst)
    let bytes = try call(
      "CreateToken", request, doing: "create token \(name)", service: Self.tokenService)
    return try decode(bytes, TokenWire.decodeCreateTokenResponse)
  }

  func listTokens() throws(CLIError) -> [TokenWire.Listed] {
    let bytes = try call("ListTokens", [], doing: "list tokens", service: Self.tokenService)
    return try decode(bytes, TokenWire.decodeListTokensResponse)
  }

  func revokeToken(name: String) throws(CLIError) {
    _ = try call(
      "RevokeToken", TokenWire.encodeRevokeTokenRequest(name: name),
      doing: "revoke token \(name)", service: Self.tokenService)
  }

  func error(_ status: GRPCStatus, doing action: String) -> CLIError {
    StatusReport.error(status, doing: action, server: options.serverText)
  }

  func decode<Value>(
    _ bytes: [UInt8], _ decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
  ) throws(CLIError) -> Value {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(WireError) in try decoder(raw) }
    }
    switch result {
    case .success(let value): return value
    case .failure(let error):
      throw .rejected("cannot read gauged's answer: \(error.message)")
    }
  }

  private func call(
    _ method: String, _ request: [UInt8], doing action: String, service: String = service
  ) throws(CLIError) -> [UInt8] {
    let response = client.unary(
      path: service + method, request: request, metadata: options.metadata,
      timeout: options.timeout)
    do {
      return try response.singleMessage()
    } catch {
      throw self.error(error, doing: action)
    }
  }
}
