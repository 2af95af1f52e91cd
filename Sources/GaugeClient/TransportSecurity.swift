/// How a `GaugeClient` secures its connection.
///
/// Only `.none` (plain HTTP/2 with prior knowledge) works today; the other
/// cases are accepted by the type so that callers can be written now, and
/// `GaugeClient.init` rejects them with `GaugeError.Code.unimplemented`
/// until gauged serves TLS.
public enum TransportSecurity: Sendable, Equatable {
  /// Plain TCP or a Unix domain socket.
  case none
  /// TLS, trusting the system's certificate authorities. Not supported yet.
  case system
  /// TLS, trusting the certificate authorities in the PEM file at `path`.
  /// Not supported yet.
  case ca(path: String)
}
