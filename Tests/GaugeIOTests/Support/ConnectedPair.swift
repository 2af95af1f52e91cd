import GaugeIO
import Glibc

/// A client connected to a listener on `address`, and the server's end of that connection.
func connectedPair(on address: String) throws -> (ConnectedSocket, ConnectedSocket) {
  let listener = try ListeningSocket(address: SocketAddress(parsing: address))
  defer { listener.close() }
  let client = try ConnectedSocket.connect(to: listener.localAddress)
  var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
  _ = poll(&descriptor, 1, 5000)
  guard case .processed(let server) = try listener.accept() else {
    throw IOError(call: "accept4", errno: EAGAIN)
  }
  return (client, server)
}
