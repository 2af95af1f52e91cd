import GRPCTransport
import GRPCTransportTesting
import GaugeDomain
import Testing

@testable import GaugeService

/// Which face each path reaches now that the browser's pages share the
/// port's paths with REST and events.
@Suite struct WebRouterTests {
  let router: WebRouter

  init() {
    let hub = ChangeHub()
    let store = InMemoryWidgetStore(observer: hub.publish, batchObserver: hub.publish(batch:))
    router = WebRouter(
      rest: RESTFace(store: store), events: EventsFace(store: store, hub: hub),
      index: IndexPage(serverName: "gauged/test", services: []),
      assets: WebAssetCatalogue(files: [
        ("index.html", Array("<p>dashboard</p>".utf8)),
        ("playground.html", Array("<p>playground</p>".utf8)),
        ("assets/draw.mjs", Array("export {};".utf8)),
      ]))
  }

  private func get(_ target: String, accept: String = "text/html") -> HTTPResponse {
    let exchange = RecordingHTTPExchange()
    router.handle(
      HTTPRequest(method: "GET", target: target, headers: ["accept": accept]), exchange: exchange)
    return exchange.responses.first ?? HTTPResponse(status: 0)
  }

  @Test func pagesAndTheirFilesGoToThePages() {
    #expect(get("/?prefix=cpu").body == Array("<p>dashboard</p>".utf8))
    #expect(get("/playground/cpu").body == Array("<p>playground</p>".utf8))
    #expect(get("/assets/draw.mjs").status == 200)
    #expect(get("/index.txt").headers["content-type"] == "text/plain; charset=utf-8")
  }

  @Test func restAndEverythingElseAreUntouched() {
    let list = get("/widgets", accept: "application/json")
    #expect(list.headers["content-type"] == "application/json")
    #expect(get("/widgets/nope", accept: "application/json").status == 404)
    #expect(get("/assets").status == 404)
    #expect(get("/favicon.ico").status == 404)
    #expect(get("/playgrounds").status == 404)
  }
}
