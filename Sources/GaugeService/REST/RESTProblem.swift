import GRPCTransport
import GaugeDomain
import WidgetJSON

/// A request the REST face answers with a problem instead of a result.
struct RESTProblem: Error {
  var details: ProblemDetails
  /// The refusal as the domain names it, when a write was refused for
  /// breaking a rule or for the widget's state: counted in
  /// `gauged_writes_rejected_total` as gRPC's refusals are.
  private(set) var refusal: WidgetError?

  init(_ status: Int, _ detail: String, headers: HTTPFields = HTTPFields()) {
    details = ProblemDetails(status: status, detail: detail, headers: headers)
  }

  init(_ details: ProblemDetails) {
    self.details = details
  }

  /// 422 with every violation listed and the first one as the summary.
  init(invalid violations: [FieldViolation]) {
    let errors = violations.map {
      ProblemDetails.FieldError(field: $0.field, detail: $0.description)
    }
    var summary = violations.first.map { "\($0.field): \($0.description)" } ?? "invalid request"
    if violations.count > 1 {
      let more = violations.count - 1
      summary += " (and \(more) more problem\(more == 1 ? "" : "s"))"
    }
    details = ProblemDetails(status: 422, detail: summary, errors: errors)
  }

  init(_ invalid: RESTInvalid) {
    self.init(invalid: invalid.violations)
    refusal = .invalid(invalid.violations)
  }

  /// The HTTP face of a store error; `clearPaths` names the merge patch's
  /// `null`s in the domain's `clear_fields` violations.
  init(_ error: WidgetError, clearPaths: [String] = []) {
    switch error {
    case .invalid(let violations):
      self.init(invalid: violations.map { RESTFieldPath.translate($0, clearPaths: clearPaths) })
    case .notFound:
      self.init(404, error.message)
    case .unavailable:
      self.init(503, error.message)
    case .preconditionFailed:
      self.init(412, error.message)
    case .alreadyExists, .aborted:
      self.init(409, error.message)
    case .resourceExhausted:
      // The store is full, not the caller over a rate: no Retry-After.
      self.init(507, error.message)
    case .readOnly, .outsideReach:
      self.init(403, error.message)
    }
    refusal = error
  }

  var status: Int { details.status }
}
