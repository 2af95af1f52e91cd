import GRPCTransport
import GaugeDomain

/// What each method and route asks of a caller, in one table for every
/// face. Health, the pages (the dashboard's files hold no widget) and
/// `POST /login` are open; reading widgets (gRPC, gRPC-Web, Connect, REST,
/// Server-Sent Events), reflection and `/metrics` need `read`; changing
/// widgets needs `write`; managing tokens needs `admin`. An unlisted
/// method needs `write` at least, so a new one is closed until listed.
public enum AccessRequirement: Sendable, Equatable {
  case open
  case scope(Scope)

  /// A gRPC method, whichever protocol carried it.
  public static func call(service: String, method: String) -> AccessRequirement {
    switch service {
    case "grpc.health.v1.Health":
      return .open
    case "gauge.v1.WidgetService":
      switch method {
      case "GetWidget", "ListWidgets", "Subscribe": return .scope(.read)
      default: return .scope(.write)
      }
    case "gauge.v1.TokenService":
      return .scope(.admin)
    case "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection":
      return .scope(.read)
    default:
      return .scope(.write)
    }
  }

  /// An HTTP request that is not a gRPC method's.
  public static func request(method: String, path: String) -> AccessRequirement {
    if path == LoginFace.path { return .open }
    if path == EventsFace.path || path == MetricsFace.path { return .scope(.read) }
    if TokensFace.handles(path: path) { return .scope(.admin) }
    if RESTFace.handles(path: path) {
      switch method {
      case "GET", "HEAD": return .scope(.read)
      // Answers only which methods a resource allows.
      case "OPTIONS": return .open
      default: return .scope(.write)
      }
    }
    return .open
  }
}
