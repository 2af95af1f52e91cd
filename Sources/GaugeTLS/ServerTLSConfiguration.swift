import Synchronization

/// The server's TLS: the files it was started with and the context made
/// from them, which `reload` replaces (SIGHUP) while connections are
/// accepted. A connection takes the current context when it is accepted
/// and keeps it for life.
public final class ServerTLSConfiguration: Sendable {
  public let certificateChainFile: String
  public let privateKeyFile: String
  public let clientCAFile: String?
  private let current: Mutex<TLSContext>

  public init(
    certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil
  ) throws(TLSFailure) {
    self.certificateChainFile = certificateChainFile
    self.privateKeyFile = privateKeyFile
    self.clientCAFile = clientCAFile
    let context = try TLSContext.server(
      certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile,
      clientCAFile: clientCAFile)
    current = Mutex(context)
  }

  /// The context new connections get.
  public var context: TLSContext { current.withLock { $0 } }

  /// Reads the files again. On failure the old context stays, and the
  /// error says why.
  @discardableResult
  public func reload() throws(TLSFailure) -> TLSContext {
    let context = try TLSContext.server(
      certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile,
      clientCAFile: clientCAFile)
    current.withLock { $0 = context }
    return context
  }
}
