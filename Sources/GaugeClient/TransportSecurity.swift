/// How a `GaugeClient` secures its connection.
public enum TransportSecurity: Sendable, Equatable {
  /// Plain TCP or a Unix domain socket (HTTP/2 with prior knowledge).
  case none
  /// TLS (ALPN h2), trusting the system's certificate authorities; the
  /// certificate must name the target's host.
  case system
  /// TLS, trusting the certificate authorities in the PEM file at `path`.
  case ca(path: String)
}
