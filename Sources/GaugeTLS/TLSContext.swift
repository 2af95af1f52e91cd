import COpenSSL

/// One TLS configuration, as OpenSSL's `SSL_CTX`: protocol versions,
/// certificate and key (server), trusted roots, ALPN. Every session made
/// from it shares it; a new pair of files means a new context, and the
/// sessions of the old one keep it alive until they end.
public final class TLSContext: @unchecked Sendable {
  // @unchecked Sendable: the SSL_CTX is configured in the initializers and
  // only read afterwards (SSL_new), which OpenSSL allows from any thread.
  let handle: OpaquePointer

  private init(method: OpaquePointer?) throws(TLSFailure) {
    ERR_clear_error()
    guard let handle = SSL_CTX_new(method) else { throw TLSFailure("cannot create a TLS context") }
    self.handle = handle
    // TLS 1.2 and 1.3 only.
    guard copenssl_ctx_set_min_proto_version(handle, TLS1_2_VERSION) == 1,
      copenssl_ctx_set_max_proto_version(handle, TLS1_3_VERSION) == 1
    else { throw TLSFailure("cannot limit TLS to versions 1.2 and 1.3") }
    copenssl_ctx_disable_compression_and_renegotiation(handle)
  }

  deinit {
    SSL_CTX_free(handle)
  }

  /// A server's context: the certificate chain and its key from PEM files,
  /// ALPN `h2` and `http/1.1`. With `clientCAFile`, clients must present a
  /// certificate that one of its certificates signed.
  public static func server(
    certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil
  ) throws(TLSFailure) -> TLSContext {
    let context = try TLSContext(method: TLS_server_method())
    let handle = context.handle
    guard SSL_CTX_use_certificate_chain_file(handle, certificateChainFile) == 1 else {
      throw TLSFailure("cannot read the certificate chain in \(certificateChainFile)")
    }
    guard SSL_CTX_use_PrivateKey_file(handle, privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
      throw TLSFailure("cannot read the private key in \(privateKeyFile)")
    }
    guard SSL_CTX_check_private_key(handle) == 1 else {
      throw TLSFailure("the key in \(privateKeyFile) does not match the certificate")
    }
    copenssl_ctx_use_server_alpn(handle)
    // A connection's record buffers are freed while it has nothing in
    // flight: most of gauged's connections are idle subscribers.
    _ = copenssl_ctx_set_mode(handle, Int(SSL_MODE_RELEASE_BUFFERS))
    // Resumed sessions are only offered to the context that issued them.
    let sessionContext: [UInt8] = Array("gauged".utf8)
    _ = SSL_CTX_set_session_id_context(handle, sessionContext, UInt32(sessionContext.count))
    if let clientCAFile {
      guard SSL_CTX_load_verify_locations(handle, clientCAFile, nil) == 1,
        let names = SSL_load_client_CA_file(clientCAFile)
      else {
        throw TLSFailure("cannot read the client CA certificates in \(clientCAFile)")
      }
      SSL_CTX_set_client_CA_list(handle, names)
      SSL_CTX_set_verify(handle, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
    }
    return context
  }

  /// A client's context: ALPN `h2`, and the server's certificate verified
  /// against `caFile`, or the system's trusted roots without one.
  public static func client(caFile: String? = nil) throws(TLSFailure) -> TLSContext {
    let context = try TLSContext(method: TLS_client_method())
    let handle = context.handle
    if let caFile {
      guard SSL_CTX_load_verify_locations(handle, caFile, nil) == 1 else {
        throw TLSFailure("cannot read the CA certificates in \(caFile)")
      }
    } else {
      guard SSL_CTX_set_default_verify_paths(handle) == 1 else {
        throw TLSFailure("cannot find the system's trusted certificates")
      }
    }
    SSL_CTX_set_verify(handle, SSL_VERIFY_PEER, nil)
    let alpn: [UInt8] = [2] + Array("h2".utf8)
    // Unlike most of OpenSSL, 0 is success here.
    guard SSL_CTX_set_alpn_protos(handle, alpn, UInt32(alpn.count)) == 0 else {
      throw TLSFailure("cannot offer ALPN h2")
    }
    return context
  }

  /// Whether the server certificate's notAfter has passed: gauged serves
  /// it anyway (the clients decide) but says so.
  public var certificateHasExpired: Bool {
    guard let certificate = SSL_CTX_get0_certificate(handle),
      let notAfter = X509_get0_notAfter(certificate)
    else { return false }
    return X509_cmp_current_time(notAfter) < 0
  }
}
