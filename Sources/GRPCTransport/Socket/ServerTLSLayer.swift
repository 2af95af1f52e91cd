import GaugeJSON
import GaugeTLS

/// A TLS listener's connection between the socket and the protocol
/// session: its `TLSSession`, where it stands in the handshake (which
/// counts against the loop's cap until it ends, one way or another), and
/// what a cleartext client is told.
final class ServerTLSLayer {
  /// How long a client may take from connecting to its first request's
  /// protocol being known: the whole handshake, and ALPN or the first
  /// decrypted bytes.
  static let handshakeTimeout = Duration.seconds(10)

  private enum Phase {
    /// Nothing read yet: the first byte tells TLS from cleartext.
    case awaitingFirstBytes
    case handshaking
    /// Done, failed or abandoned: no longer counted.
    case ended
  }

  let session: TLSSession
  /// The loop's buffer for decrypted bytes, handed to the session at once.
  let plaintextBuffer: UnsafeMutableRawBufferPointer
  private var phase = Phase.awaitingFirstBytes
  /// Whether the last read completed a record and handed its plaintext on.
  /// A read that only adds to a record queues no work, so the loop looks
  /// clear; `ConnectionHandler` keeps yielding then (see `ReadBudget`), or
  /// a producer's records would be read a quarter of a megabyte at a time.
  var deliveredPlaintext = false
  private let onHandshakeEnded: () -> Void

  init(
    session: TLSSession, plaintextBuffer: UnsafeMutableRawBufferPointer,
    onHandshakeEnded: @escaping () -> Void
  ) {
    self.session = session
    self.plaintextBuffer = plaintextBuffer
    self.onHandshakeEnded = onHandshakeEnded
  }

  /// Whether the connection's first bytes are cleartext HTTP where a TLS
  /// record must start; asked of every read, true only of the first.
  func refusesPlaintext(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard case .awaitingFirstBytes = phase, let first = bytes.first else { return false }
    phase = .handshaking
    return Self.startsCleartextHTTP(first)
  }

  /// A method's capital letter (or HTTP/2's `PRI`): a TLS connection starts
  /// with a handshake record (22), or an SSLv2-style hello (128 and up).
  static func startsCleartextHTTP(_ first: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
  }

  func handshakeEnded() {
    if case .ended = phase { return }
    phase = .ended
    onHandshakeEnded()
  }

  /// The answer to cleartext HTTP: a problem a human with curl can read.
  static let plaintextRefusal: [UInt8] = {
    let problem = ProblemDetails(
      status: 400,
      detail: "this port speaks TLS only: use https:// (or a gRPC client with TLS)")
    let body = Array(JSONWriter.compact(problem.json).utf8)
    let head =
      "HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\n"
      + "content-length: \(body.count)\r\nconnection: close\r\n\r\n"
    return Array(head.utf8) + body
  }()
}
