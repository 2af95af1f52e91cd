import Testing

@testable import GRPCTransport

@Suite struct RouterTests {
  private let router = Router(services: [EchoService()])

  @Test func knownMethodIsFound() {
    guard case .found(_, let service, let method) = router.route(path: "/test.Echo/Echo") else {
      Issue.record("expected found")
      return
    }
    #expect(service == "test.Echo" && method == "Echo")
  }

  @Test func unknownServiceAndMethodAreTold() {
    guard case .unknownService("x.Y") = router.route(path: "/x.Y/Echo") else {
      Issue.record("expected unknown service")
      return
    }
    guard case .unknownMethod("test.Echo", "Nope") = router.route(path: "/test.Echo/Nope") else {
      Issue.record("expected unknown method")
      return
    }
  }

  @Test(arguments: [
    "", "/", "//", "test.Echo/Echo", "/test.Echo", "/test.Echo/", "//Echo",
    "/test.Echo/Echo/extra",
  ])
  func malformedPaths(path: String) {
    guard case .malformed = router.route(path: path) else {
      Issue.record("\(path) should be malformed")
      return
    }
  }
}
