import GRPCTransport
import GaugeDomain
import GaugeWire

extension WidgetError {
  /// INVALID_ARGUMENT carries every violation twice: in `grpc-message` for
  /// people, and as a `google.rpc.BadRequest` for programs.
  var grpcStatus: GRPCStatus {
    switch self {
    case .invalid(let violations):
      let code = GRPCStatus.Code.invalidArgument
      return GRPCStatus(
        code, message,
        details: StatusDetailsWire.encodeBadRequest(
          code: code.rawValue, message: message, violations: violations))
    case .notFound:
      return GRPCStatus(.notFound, message)
    case .unavailable:
      return GRPCStatus(.unavailable, message)
    }
  }
}
