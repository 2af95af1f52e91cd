import GaugeDomain
import GaugeProtos
import ProtobufCSupport

/// `gauge.v1.TokenService` messages ⇄ domain values. Secrets pass through
/// only in a `CreateTokenResponse`.
public enum TokenWire {
  /// A CreateTokenRequest as sent: every field optional, checked by the
  /// service so that each fault is named.
  public struct CreateRequest: Sendable, Equatable {
    public var name: String?
    /// nil: absent or TOKEN_SCOPE_UNSPECIFIED; an unknown number stays as it came.
    public var scope: Int32?
    public var prefix: String
    public var expiresInMs: Int64

    public init(name: String?, scope: Int32?, prefix: String, expiresInMs: Int64) {
      self.name = name
      self.scope = scope
      self.prefix = prefix
      self.expiresInMs = expiresInMs
    }
  }

  public static func decodeCreateTokenRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> CreateRequest {
    try withUnpacked(
      bytes, as: "gauge.v1.CreateTokenRequest", gauge__v1__create_token_request__unpack,
      gauge__v1__create_token_request__free_unpacked
    ) { request in
      let scope = request.has_scope != 0 ? Int32(request.scope.rawValue) : nil
      return CreateRequest(
        name: optionalString(request.name), scope: scope == 0 ? nil : scope,
        prefix: optionalString(request.prefix) ?? "",
        expiresInMs: request.has_expires_in_ms != 0 ? request.expires_in_ms : 0)
    }
  }

  /// The name in a RevokeTokenRequest ("" when absent).
  public static func decodeRevokeTokenRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> String {
    try withUnpacked(
      bytes, as: "gauge.v1.RevokeTokenRequest", gauge__v1__revoke_token_request__unpack,
      gauge__v1__revoke_token_request__free_unpacked
    ) { request in optionalString(request.name) ?? "" }
  }

  public static func encodeCreateTokenResponse(_ token: AccessToken, secret: String) -> [UInt8] {
    EncodeArena.withArena { arena in
      let response = arena.message(gauge__v1__create_token_response__init)
      response.pointee.token = arena.token(token)
      response.pointee.secret = arena.cString(secret)
      return packed(
        response, gauge__v1__create_token_response__get_packed_size,
        gauge__v1__create_token_response__pack)
    }
  }

  public static func encodeListTokensResponse(_ tokens: [AccessToken]) -> [UInt8] {
    EncodeArena.withArena { arena in
      let response = arena.message(gauge__v1__list_tokens_response__init)
      let messages = tokens.map { Optional(arena.token($0)) }
      response.pointee.n_tokens = messages.count
      response.pointee.tokens = arena.array(of: messages)
      return packed(
        response, gauge__v1__list_tokens_response__get_packed_size,
        gauge__v1__list_tokens_response__pack)
    }
  }
}

extension EncodeArena {
  fileprivate mutating func token(_ token: AccessToken) -> UnsafeMutablePointer<Gauge__V1__Token> {
    let message = self.message(gauge__v1__token__init)
    message.pointee.name = cString(token.name)
    message.pointee.has_scope = 1
    message.pointee.scope = Gauge__V1__TokenScope(rawValue: UInt32(token.scope.rawValue))
    if case .prefix(let prefix) = token.reach { message.pointee.prefix = cString(prefix) }
    message.pointee.has_created_ms = 1
    message.pointee.created_ms = token.createdMs
    if let lastUsed = token.lastUsedMs {
      message.pointee.has_last_used_ms = 1
      message.pointee.last_used_ms = lastUsed
    }
    if let expires = token.expiresMs {
      message.pointee.has_expires_ms = 1
      message.pointee.expires_ms = expires
    }
    return message
  }
}
