/// The plain-text answer to `GET /` (or a non-gRPC `POST /`), for people
/// with curl and for HTTP/2 conformance tools: what is listening here.
enum ServerBanner {
  static func text(serverName: String, services: [String]) -> String {
    var lines = [
      serverName,
      "A gRPC server (HTTP/2 with prior knowledge, no TLS); call it with a gRPC client.",
      "Services:",
    ]
    lines += services.map { "  " + $0 }
    return lines.joined(separator: "\n") + "\n"
  }
}
