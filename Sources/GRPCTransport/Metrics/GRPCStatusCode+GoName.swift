import GRPCCore

extension GRPCStatus.Code {
  /// The code as Go's `codes.Code.String()` names it: the `grpc_code`
  /// label dashboards built on go-grpc-prometheus filter by.
  public var goName: String {
    switch self {
    case .ok: "OK"
    case .cancelled: "Canceled"
    case .unknown: "Unknown"
    case .invalidArgument: "InvalidArgument"
    case .deadlineExceeded: "DeadlineExceeded"
    case .notFound: "NotFound"
    case .alreadyExists: "AlreadyExists"
    case .permissionDenied: "PermissionDenied"
    case .resourceExhausted: "ResourceExhausted"
    case .failedPrecondition: "FailedPrecondition"
    case .aborted: "Aborted"
    case .outOfRange: "OutOfRange"
    case .unimplemented: "Unimplemented"
    case .internal: "Internal"
    case .unavailable: "Unavailable"
    case .dataLoss: "DataLoss"
    case .unauthenticated: "Unauthenticated"
    }
  }
}
