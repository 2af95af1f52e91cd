import GRPCTransport
import GaugeDomain
import Testing

@testable import GaugeService

/// What a rejected request's status carries.
@Suite struct WidgetErrorStatusTests {
  private func violations(_ count: Int) -> [FieldViolation] {
    (0..<count).map {
      FieldViolation(field: "clear_fields[\($0)]", description: "name is also set in this request")
    }
  }

  @Test func everyViolationIsListedUpToTheLimit() {
    let status = WidgetError.invalid(violations(WidgetError.listedViolations)).grpcStatus
    #expect(status.code == .invalidArgument)
    #expect(
      status.message.split(separator: "; ", omittingEmptySubsequences: false).count
        == WidgetError.listedViolations)
    #expect(!status.message.contains("more"))
  }

  /// One rule broken per element of a repeated field: 780 violations made
  /// trailers of over 64 KiB, which nghttp2 would not send at all.
  @Test func pastTheLimitTheMessageCountsTheRest() throws {
    let status = WidgetError.invalid(violations(780)).grpcStatus
    let parts = status.message.split(separator: "; ", omittingEmptySubsequences: false)
    #expect(parts.count == WidgetError.listedViolations + 1)
    #expect(parts.first == "clear_fields[0]: name is also set in this request")
    #expect(parts.last == "and \(780 - WidgetError.listedViolations) more")
    let details = try #require(status.details)
    #expect(status.message.utf8.count + details.count < 2048)
  }

  @Test func failedPreconditionsAndTakenIDsHaveTheirOwnCodes() {
    let stale = WidgetError.preconditionFailed(id: "a", currentRevision: 4).grpcStatus
    #expect(stale.code == .failedPrecondition)
    #expect(stale.message == "widget \"a\" has changed: its revision is now 4")
    #expect(WidgetError.alreadyExists(id: "a").grpcStatus.code == .alreadyExists)
  }

  @Test func theServersOwnWidgetsArePermissionDenied() {
    let refused = WidgetError.readOnly(id: "gauged-x", prefix: "gauged-").grpcStatus
    #expect(refused.code == .permissionDenied)
    #expect(
      refused.message
        == "widget \"gauged-x\" is read-only: ids starting with \"gauged-\" are the server's own gauges"
    )
  }
}

/// A shared store's refusals: lost too often to other writers, or full.
@Suite struct SharedStoreRefusalTests {
  @Test func abortedAndResourceExhaustedKeepTheirMessage() {
    let aborted = WidgetError.aborted("widget \"cpu\" kept changing").grpcStatus
    #expect(aborted.code == .aborted)
    #expect(aborted.message == "widget \"cpu\" kept changing")
    let full = WidgetError.resourceExhausted("not applied: NATS put failed").grpcStatus
    #expect(full.code == .resourceExhausted)
    #expect(full.message == "not applied: NATS put failed")
  }
}
