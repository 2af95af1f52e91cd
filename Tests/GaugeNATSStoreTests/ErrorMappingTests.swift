import GaugeDomain
import GaugeNATS
import Testing

@testable import GaugeNATSStore

/// What a failed bucket call becomes for the faces: storage refusals are
/// RESOURCE_EXHAUSTED, everything else UNAVAILABLE, both naming NATS.
@Suite struct ErrorMappingTests {
  @Test func storageRefusalsAreResourceExhausted() {
    let error = NATSError(
      operation: "update w.cpu", kind: .resourceExhausted, jetStreamCode: 10047,
      detail: "insufficient resources")
    guard case .resourceExhausted(let message) = WidgetError(error) else {
      Issue.record("not resourceExhausted: \(WidgetError(error))")
      return
    }
    #expect(message.contains("NATS update w.cpu failed"))
  }

  @Test func everythingElseIsUnavailableNamingNATS() {
    for kind in [NATSError.Kind.unavailable, .notFound, .notPermitted, .invalid, .failed] {
      let error = NATSError(operation: "create w.cpu", kind: kind, detail: "timeout")
      guard case .unavailable(let message) = WidgetError(error) else {
        Issue.record("\(kind) is not unavailable: \(WidgetError(error))")
        continue
      }
      #expect(message.hasPrefix("not applied: NATS create w.cpu failed"))
    }
  }
}
