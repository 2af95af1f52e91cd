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
    /// 0: absent.
    public var writeRatePerSecond: UInt32 = 0
    public var writeBurst: UInt32 = 0

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
      var decoded = CreateRequest(
        name: optionalString(request.name), scope: scope == 0 ? nil : scope,
        prefix: optionalString(request.prefix) ?? "",
        expiresInMs: request.has_expires_in_ms != 0 ? request.expires_in_ms : 0)
      decoded.writeRatePerSecond = request.has_write_rate_per_s != 0 ? request.write_rate_per_s : 0
      decoded.writeBurst = request.has_write_burst != 0 ? request.write_burst : 0
      return decoded
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
    if let rate = token.writeRate {
      message.pointee.has_write_rate_per_s = 1
      message.pointee.write_rate_per_s = UInt32(clamping: Int64(rate.perSecond))
      message.pointee.has_write_burst = 1
      message.pointee.write_burst = UInt32(clamping: Int64(rate.burst))
    }
    return message
  }
}

// MARK: The client's side (gaugectl)

extension TokenWire {
  /// A token as TokenService describes it: never its secret or digest.
  public struct Listed: Sendable, Equatable {
    public var name: String
    /// nil for a scope this client does not know.
    public var scope: Scope?
    public var prefix: String
    public var createdMs: Int64
    public var lastUsedMs: Int64?
    public var expiresMs: Int64?
    /// Its own write limit, when it has one.
    public var writeRatePerSecond: UInt32?
    public var writeBurst: UInt32?

    public init(
      name: String, scope: Scope?, prefix: String, createdMs: Int64, lastUsedMs: Int64? = nil,
      expiresMs: Int64? = nil, writeRatePerSecond: UInt32? = nil, writeBurst: UInt32? = nil
    ) {
      self.name = name
      self.scope = scope
      self.prefix = prefix
      self.createdMs = createdMs
      self.lastUsedMs = lastUsedMs
      self.expiresMs = expiresMs
      self.writeRatePerSecond = writeRatePerSecond
      self.writeBurst = writeBurst
    }
  }

  public static func encodeCreateTokenRequest(
    name: String, scope: Scope, prefix: String, expiresInMs: Int64?,
    writeRatePerSecond: UInt32? = nil, writeBurst: UInt32? = nil
  ) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__create_token_request__init)
      request.pointee.name = arena.cString(name)
      request.pointee.has_scope = 1
      request.pointee.scope = Gauge__V1__TokenScope(rawValue: UInt32(scope.rawValue))
      if !prefix.isEmpty { request.pointee.prefix = arena.cString(prefix) }
      if let expiresInMs {
        request.pointee.has_expires_in_ms = 1
        request.pointee.expires_in_ms = expiresInMs
      }
      if let writeRatePerSecond {
        request.pointee.has_write_rate_per_s = 1
        request.pointee.write_rate_per_s = writeRatePerSecond
      }
      if let writeBurst {
        request.pointee.has_write_burst = 1
        request.pointee.write_burst = writeBurst
      }
      return packed(
        request, gauge__v1__create_token_request__get_packed_size,
        gauge__v1__create_token_request__pack)
    }
  }

  public static func encodeRevokeTokenRequest(name: String) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__revoke_token_request__init)
      request.pointee.name = arena.cString(name)
      return packed(
        request, gauge__v1__revoke_token_request__get_packed_size,
        gauge__v1__revoke_token_request__pack)
    }
  }

  /// The new token and its secret.
  public static func decodeCreateTokenResponse(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> (token: Listed, secret: String) {
    try withUnpacked(
      bytes, as: "gauge.v1.CreateTokenResponse", gauge__v1__create_token_response__unpack,
      gauge__v1__create_token_response__free_unpacked
    ) { response in
      (
        response.token.map { listed($0.pointee) }
          ?? Listed(name: "", scope: nil, prefix: "", createdMs: 0),
        optionalString(response.secret) ?? ""
      )
    }
  }

  public static func decodeListTokensResponse(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> [Listed] {
    try withUnpacked(
      bytes, as: "gauge.v1.ListTokensResponse", gauge__v1__list_tokens_response__unpack,
      gauge__v1__list_tokens_response__free_unpacked
    ) { response in
      (0..<response.n_tokens).compactMap { index in
        response.tokens[index].map { listed($0.pointee) }
      }
    }
  }

  private static func listed(_ token: Gauge__V1__Token) -> Listed {
    Listed(
      name: optionalString(token.name) ?? "",
      scope: token.has_scope != 0 ? Scope(rawValue: Int(token.scope.rawValue)) : nil,
      prefix: optionalString(token.prefix) ?? "",
      createdMs: token.created_ms,
      lastUsedMs: token.has_last_used_ms != 0 ? token.last_used_ms : nil,
      expiresMs: token.has_expires_ms != 0 ? token.expires_ms : nil,
      writeRatePerSecond: token.has_write_rate_per_s != 0 ? token.write_rate_per_s : nil,
      writeBurst: token.has_write_burst != 0 ? token.write_burst : nil)
  }
}
