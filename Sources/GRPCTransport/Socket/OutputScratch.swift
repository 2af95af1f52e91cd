/// One event loop's buffer for output on its way to a socket, reused by
/// every connection of the loop (see `ConnectionHandler.flush`): only what a
/// socket does not take is copied into the connection's own `SocketOutput`.
final class OutputScratch {
  var bytes: [UInt8] = []
  /// A TLS connection's plaintext on its way to be encrypted into `bytes`.
  var plaintext: [UInt8] = []
}
