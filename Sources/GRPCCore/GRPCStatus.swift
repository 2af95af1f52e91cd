/// The outcome of a call, as carried in the `grpc-status`, `grpc-message`
/// and `grpc-status-details-bin` trailers.
public struct GRPCStatus: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: Code
  public var message: String
  /// Serialized `google.rpc.Status`, sent base64 in `grpc-status-details-bin`.
  public var details: [UInt8]?

  public init(_ code: Code, _ message: String = "", details: [UInt8]? = nil) {
    self.code = code
    self.message = message
    self.details = details
  }

  public static let ok = GRPCStatus(.ok)

  public var description: String {
    message.isEmpty ? "\(code)" : "\(code): \(message)"
  }

  /// The codes of grpc's `doc/statuscodes.md`; raw values are the wire numbers.
  public enum Code: Int32, Sendable, Equatable, CaseIterable {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16
  }
}
