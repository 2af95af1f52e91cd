import GRPCTransport
import GaugeDomain

/// `PUT` and `PATCH` with `?dry_run=true` (the playground's draft mode):
/// answered as the write would be, status, widget and problems alike, by
/// this same face running the request against a scratch store that holds
/// only the widget concerned, at its revision, and the store's last
/// revision. Nothing is written, no revision is taken, no subscriber hears
/// of it, and there is no durability to wait for.
extension RESTFace {
  /// nil: not a dry run; the request goes to the store.
  func dryRun(_ request: HTTPRequest, id: String) throws(RESTProblem) -> RESTOutcome? {
    guard let flag = request.queryValue("dry_run") else { return nil }
    switch flag {
    case "false": return nil
    case "true": break
    default:
      throw RESTProblem(
        invalid: [
          FieldViolation(field: "dry_run", description: "\"\(flag)\" is neither true nor false")
        ])
    }
    var scratchRequest = request
    scratchRequest.query = nil
    let current = try? store.get(id: id)
    let scratchStore = InMemoryWidgetStore(
      widgets: current.map { [$0] } ?? [], lastRevision: store.snapshot().lastRevision)
    // A prefix the real store keeps to itself is refused in the draft too.
    let reserved = (store as? ReservedPrefixStore)?.prefix
    let scratch = RESTFace(
      store: reserved.map { ReservedPrefixStore(scratchStore, prefix: $0) } ?? scratchStore)
    switch try scratch.answer(scratchRequest) {
    case .now(let response), .whenDurable(let response): return .now(response)
    }
  }
}
