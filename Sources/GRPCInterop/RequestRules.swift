import GRPCCore
import GRPCTransport

/// The checks grpc's interop server features ask for, each failing with the
/// status a stock interop server answers.
enum RequestRules {
  /// The largest payload one response may ask for: the interop cases ask
  /// for at most 314,159 bytes, and a client must not make the server
  /// allocate without bound.
  static let maxResponseSize: Int32 = 4 << 20

  /// CompressedRequest: when the client says whether the message was
  /// compressed, it must have been exactly that.
  static func checkCompression(expected: Bool?, actual: Bool, field: String) -> GRPCStatus? {
    guard let expected, expected != actual else { return nil }
    return GRPCStatus(
      .invalidArgument,
      expected
        ? "\(field) is true but the message arrived uncompressed"
        : "\(field) is false but the message arrived compressed")
  }

  /// Only COMPRESSABLE (0) payloads exist.
  static func checkResponseType(_ type: Int32) -> GRPCStatus? {
    type == 0
      ? nil
      : GRPCStatus(.invalidArgument, "response_type \(type) is not supported (only COMPRESSABLE)")
  }

  static func checkSize(_ size: Int32, field: String) -> GRPCStatus? {
    guard size < 0 || size > maxResponseSize else { return nil }
    return GRPCStatus(
      .invalidArgument, "\(field): \(size) is outside 0...\(maxResponseSize)")
  }

  /// Echo Status: a non-zero code ends the call with that code and message.
  /// A code outside grpc's range still ends the call, as UNKNOWN.
  static func echoedStatus(_ status: EchoStatus?) -> GRPCStatus? {
    guard let status, status.code != 0 else { return nil }
    guard let code = GRPCStatus.Code(rawValue: status.code) else {
      return GRPCStatus(.unknown, "requested status code \(status.code): \(status.message)")
    }
    return GRPCStatus(code, status.message)
  }
}
