import GRPCClient
import GRPCCore

extension GaugeError {
  /// gRPC's status codes, with their numbers.
  public enum Code: Int32, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Not an error; never thrown.
    case ok = 0
    /// The caller cancelled the call.
    case cancelled = 1
    /// An error with no better code.
    case unknown = 2
    /// The request is wrong; the violations say where.
    case invalidArgument = 3
    /// The call's `timeout` ran out.
    case deadlineExceeded = 4
    /// No widget has that id.
    case notFound = 5
    /// The widget exists already.
    case alreadyExists = 6
    /// The token does not allow this call.
    case permissionDenied = 7
    /// The server is out of some resource.
    case resourceExhausted = 8
    /// The widget is not in the state the request needs.
    case failedPrecondition = 9
    /// The call was aborted by a conflict.
    case aborted = 10
    /// A value is outside what the server accepts.
    case outOfRange = 11
    /// The server does not implement the call (or the library the option).
    case unimplemented = 12
    /// Something broke inside the server or the library.
    case `internal` = 13
    /// The server cannot be reached now.
    case unavailable = 14
    /// Data was lost.
    case dataLoss = 15
    /// The call carries no valid token.
    case unauthenticated = 16

    /// The name as gRPC writes it: `INVALID_ARGUMENT`. The numbers are
    /// gRPC's, so the client's own table of names serves.
    public var description: String {
      GRPCStatus.Code(rawValue: rawValue)?.canonicalName ?? "UNKNOWN"
    }
  }
}
