import Testing

@testable import GaugeService

@Suite struct RESTRouteTests {
  @Test(arguments: [
    ("/widgets", RESTRoute.widgets),
    ("/values", .values),
    ("/widgets/cpu", .widget(id: "cpu")),
    ("/widgets/a%20b%2Fc", .widget(id: "a b/c")),
    ("/widgets/", .unknown),
    ("/widgets/a/b", .unknown),
    ("/widgetsx", .unknown),
    ("/valuesx", .unknown),
    ("/value", .unknown),
    ("/", .unknown),
    ("", .unknown),
  ])
  func pathsNameTheirResource(path: String, route: RESTRoute) {
    #expect(RESTRoute(path: path) == route)
  }
}
