import Testing

@testable import GRPCTransport

/// A loop's route counters: one per face and route, found again whether it
/// is among the few used last or not, and counted by status.
@Suite struct LoopMetricsRouteTests {
  @Test func eachFaceAndRouteHasOneCounterWhateverWasUsedBetween() {
    let loop = LoopMetrics(traits: [:], accessLog: nil)
    let first = loop.route(face: "rest", route: "/widgets/{id}")
    // More routes than the loop keeps at hand, then the first again.
    let others = (0..<6).map { loop.route(face: "rest", route: "/r\($0)") }
    #expect(loop.route(face: "rest", route: "/widgets/{id}") === first)
    #expect(loop.route(face: "events", route: "/widgets/{id}") !== first)
    for (index, route) in others.enumerated() {
      #expect(loop.route(face: "rest", route: "/r\(index)") === route)
    }
    #expect(loop.snapshot.routes.count == 8)
  }

  @Test func requestsAreCountedByStatus() {
    let loop = LoopMetrics(traits: [:], accessLog: nil)
    let route = loop.route(face: "rest", route: "/widgets")
    for status in [200, 404, 200, 200] {
      route.completed(status: status, after: .milliseconds(1), bytes: 0, peer: nil)
    }
    #expect(route.snapshot.codes == [200: 3, 404: 1])
  }
}
