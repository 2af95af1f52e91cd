import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

extension WidgetError {
  /// How many violations a status lists. A request can break a rule once per
  /// element of a repeated field, thousands of times, and trailers must stay
  /// inside what clients take: grpc-core refuses more than 16 KiB of
  /// metadata and warns past 8 KiB, and nghttp2 sends no header block over
  /// 64 KiB at all.
  static let listedViolations = 10

  /// INVALID_ARGUMENT carries the violations twice: in `grpc-message` for
  /// people, and as a `google.rpc.BadRequest` for programs; past
  /// `listedViolations`, the message says how many more there were.
  var grpcStatus: GRPCStatus {
    switch self {
    case .invalid(let violations):
      let code = GRPCStatus.Code.invalidArgument
      let listed = Array(violations.prefix(Self.listedViolations))
      var message = WidgetError.invalid(listed).message
      if violations.count > listed.count {
        message += "; and \(violations.count - listed.count) more"
      }
      return GRPCStatus(
        code, message,
        details: StatusDetailsWire.encodeBadRequest(
          code: code.rawValue, message: message, violations: listed))
    case .notFound:
      return GRPCStatus(.notFound, message)
    case .unavailable:
      return GRPCStatus(.unavailable, message)
    case .preconditionFailed:
      return GRPCStatus(.failedPrecondition, message)
    case .alreadyExists:
      return GRPCStatus(.alreadyExists, message)
    case .aborted:
      return GRPCStatus(.aborted, message)
    case .resourceExhausted:
      return GRPCStatus(.resourceExhausted, message)
    case .readOnly, .outsideReach:
      // The caller may never write these ids (the server's own, or outside
      // its token's prefix), whatever state they are in: permission, not a
      // precondition a retry could meet.
      return GRPCStatus(.permissionDenied, message)
    }
  }
}
