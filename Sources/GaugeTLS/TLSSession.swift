import COpenSSL
import Glibc

/// One TLS connection, as OpenSSL's `SSL`, between two memory buffers and
/// no socket: the owner pushes the ciphertext it read in (`receive`), asks
/// for what it yields (`next`: handshake steps, plaintext, the peer's
/// close), pushes plaintext to send (`send`) and takes the ciphertext to
/// write (`takeCiphertext`) after every call. Handshakes therefore never
/// block, and two sessions can talk to each other in a test.
///
/// Used on one thread at a time (a connection's loop).
public final class TLSSession {
  private enum State {
    case handshaking
    case established
    /// The peer's close_notify came; nothing more will be read.
    case peerClosed
    /// OpenSSL gave up: an alert for the peer may wait in the ciphertext.
    case failed(TLSFailure)
  }

  /// What the received ciphertext yielded, one step per call to `next`.
  public enum Event {
    /// Everything received so far is used: read more from the peer.
    case needsInput
    /// The handshake is done; `negotiatedProtocol` tells what ALPN chose.
    case handshakeCompleted
    /// This many bytes of plaintext were put in the buffer.
    case plaintext(Int)
    /// The peer ended the TLS session (close_notify).
    case peerClosed
    /// The peer broke the protocol or failed verification.
    case failed(TLSFailure)
  }

  public enum Role {
    case server
    /// `serverName` goes in SNI (unless it is an IP address) and the
    /// server's certificate must name it.
    case client(serverName: String)
  }

  /// Keeps the context alive as long as the session: a reloaded server
  /// context leaves the connections of the old one on theirs.
  public let context: TLSContext
  private let handle: OpaquePointer
  /// Ciphertext in (from the peer) and out (to the peer); the SSL owns both.
  private let inbound: OpaquePointer
  private let outbound: OpaquePointer
  private var state = State.handshaking
  private var closeNotifySent = false

  public init(context: TLSContext, role: Role) throws(TLSFailure) {
    ERR_clear_error()
    guard let handle = SSL_new(context.handle) else {
      throw TLSFailure("cannot create a TLS session")
    }
    guard let inbound = BIO_new(BIO_s_mem()), let outbound = BIO_new(BIO_s_mem()) else {
      SSL_free(handle)
      throw TLSFailure("cannot create the TLS session's buffers")
    }
    SSL_set_bio(handle, inbound, outbound)
    self.context = context
    self.handle = handle
    self.inbound = inbound
    self.outbound = outbound
    switch role {
    case .server:
      SSL_set_accept_state(handle)
    case .client(let serverName):
      SSL_set_connect_state(handle)
      try expect(serverName: serverName)
    }
  }

  deinit {
    SSL_free(handle)
  }

  private func expect(serverName: String) throws(TLSFailure) {
    if Self.isIPAddress(serverName) {
      guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(handle), serverName) == 1 else {
        throw TLSFailure("cannot check the server certificate for \(serverName)")
      }
    } else {
      guard copenssl_set_tlsext_host_name(handle, serverName) == 1,
        SSL_set1_host(handle, serverName) == 1
      else { throw TLSFailure("cannot check the server certificate for \(serverName)") }
    }
  }

  private static func isIPAddress(_ text: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
  }

  public var isEstablished: Bool {
    if case .established = state { return true }
    return false
  }

  /// The protocol ALPN chose (`h2`, `http/1.1`), or nil when the peers
  /// agreed on none or the handshake is not done.
  public var negotiatedProtocol: String? {
    var data: UnsafePointer<UInt8>?
    var length: UInt32 = 0
    SSL_get0_alpn_selected(handle, &data, &length)
    guard let data, length > 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
  }

  /// The negotiated version, as OpenSSL names it (`TLSv1.3`).
  public var protocolVersion: String { String(cString: SSL_get_version(handle)) }

  /// Ciphertext read from the peer; `next` turns it into events.
  public func receive(_ ciphertext: UnsafeRawBufferPointer) {
    guard let base = ciphertext.baseAddress, !ciphertext.isEmpty else { return }
    // A memory BIO takes everything (it grows), or fails for want of memory.
    _ = BIO_write(inbound, base, Int32(ciphertext.count))
  }

  /// The next thing the received ciphertext yields. Plaintext goes into
  /// `buffer`. Call it until `.needsInput` (or the end), taking the
  /// ciphertext after: handshake messages and alerts are written there.
  public func next(plaintextInto buffer: UnsafeMutableRawBufferPointer) -> Event {
    ERR_clear_error()
    switch state {
    case .handshaking:
      let result = SSL_do_handshake(handle)
      if result == 1 {
        state = .established
        return .handshakeCompleted
      }
      return wait(after: result, doing: "TLS handshake failed")
    case .established:
      let result = SSL_read(handle, buffer.baseAddress, Int32(clamping: buffer.count))
      if result > 0 { return .plaintext(Int(result)) }
      return wait(after: result, doing: "TLS read failed")
    case .peerClosed:
      return .peerClosed
    case .failed(let failure):
      return .failed(failure)
    }
  }

  /// What a call that did not succeed means: waiting for input, the peer's
  /// close, or the end of the session.
  private func wait(after result: Int32, doing what: String) -> Event {
    switch SSL_get_error(handle, result) {
    case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
      return .needsInput
    case SSL_ERROR_ZERO_RETURN:
      state = .peerClosed
      return .peerClosed
    default:
      var failure = TLSFailure(what)
      let verification = SSL_get_verify_result(handle)
      if verification != X509_V_OK, let reason = X509_verify_cert_error_string(verification) {
        failure = TLSFailure(description: "\(failure.description) (\(String(cString: reason)))")
      }
      state = .failed(failure)
      return .failed(failure)
    }
  }

  /// Encrypts `plaintext` into the ciphertext to write. Only once
  /// established; false when the session can no longer send.
  public func send(_ plaintext: UnsafeRawBufferPointer) -> Bool {
    guard case .established = state, !closeNotifySent else { return false }
    guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return true }
    ERR_clear_error()
    // With a memory BIO a write never waits: it is taken whole or fails.
    return SSL_write(handle, base, Int32(plaintext.count)) == Int32(plaintext.count)
  }

  /// Queues close_notify, once: the peer learns the session ended on
  /// purpose and not by truncation.
  public func close() {
    guard !closeNotifySent else { return }
    closeNotifySent = true
    switch state {
    case .established, .peerClosed:
      ERR_clear_error()
      _ = SSL_shutdown(handle)
      ERR_clear_error()
    case .handshaking, .failed:
      break
    }
  }

  /// Bytes of ciphertext waiting to be written.
  public var pendingCiphertext: Int { Int(BIO_ctrl_pending(outbound)) }

  /// Appends the ciphertext waiting to be written to `buffer`.
  public func takeCiphertext(into buffer: inout [UInt8]) {
    let pending = pendingCiphertext
    guard pending > 0 else { return }
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: pending))
    buffer.withUnsafeMutableBytes {
      _ = BIO_read(outbound, $0.baseAddress! + start, Int32(pending))
    }
  }
}
