/// A message encoding of grpc's `doc/compression.md`, as named in the
/// `grpc-encoding` and `grpc-accept-encoding` headers.
public enum CompressionAlgorithm: String, Sendable, Equatable, CaseIterable {
  case identity
  case gzip

  /// What this server decodes, as it goes in `grpc-accept-encoding`.
  package static let acceptEncodingValue = "gzip,identity"

  /// The request's `grpc-encoding`: identity when absent, nil when it names
  /// an encoding this server cannot decode.
  package static func forRequest(encoding: String?) -> CompressionAlgorithm? {
    guard let encoding else { return .identity }
    return CompressionAlgorithm(rawValue: trimmed(encoding.utf8))
  }

  /// Whether a `grpc-accept-encoding` list (`identity, deflate, gzip`)
  /// names this encoding. Identity is always acceptable.
  package func isAccepted(by acceptEncoding: String?) -> Bool {
    guard self != .identity else { return true }
    guard let acceptEncoding else { return false }
    return acceptEncoding.utf8.split(separator: UInt8(ascii: ",")).contains {
      Self.trimmed($0) == rawValue
    }
  }

  private static func trimmed(_ bytes: some Collection<UInt8>) -> String {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    let start = bytes.drop(while: isSpace)
    let end = start.reversed().drop(while: isSpace).reversed()
    return String(decoding: end, as: UTF8.self)
  }
}
