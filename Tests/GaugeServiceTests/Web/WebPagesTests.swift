import GRPCCore
import GRPCTransport
import GRPCTransportTesting
import Testing

@testable import GaugeService

/// The browser's face on a catalogue of its own: which file each path
/// gets, revalidation, gzip, and the headers every page carries.
@Suite struct WebPagesTests {
  static let page = Array(
    ("<!doctype html><title>t</title>" + String(repeating: "<p>gauge</p>", count: 50)).utf8)
  let pages = WebPages(
    assets: WebAssetCatalogue(files: [
      ("index.html", page), ("playground.html", Array("<p>play</p>".utf8)),
      ("assets/draw.mjs", Array("export const a = 1;".utf8)),
      ("assets/dashboard.css", Array("body{}".utf8)), ("assets/icon.svg", Array("<svg/>".utf8)),
    ]),
    index: IndexPage(serverName: "gauged/test", services: ["gauge.v1.WidgetService"]))

  private func get(_ target: String, _ headers: HTTPFields = [:], method: String = "GET")
    -> HTTPResponse
  {
    let exchange = RecordingHTTPExchange()
    pages.handle(HTTPRequest(method: method, target: target, headers: headers), exchange: exchange)
    #expect(exchange.responses.count == 1)
    return exchange.responses.first ?? HTTPResponse(status: 0)
  }

  private static let browser: HTTPFields = [
    "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
  ]

  @Test func browsersGetTheDashboardAtTheRoot() {
    let answer = get("/", Self.browser)
    #expect(answer.status == 200)
    #expect(answer.body == Self.page)
    #expect(answer.headers["content-type"] == "text/html; charset=utf-8")
    #expect(answer.headers["content-security-policy"] == "default-src 'self'")
    #expect(answer.headers["x-content-type-options"] == "nosniff")
    #expect(answer.headers["vary"] == "accept, accept-encoding")
  }

  @Test(arguments: [nil, "*/*", "text/plain", "text/html;q=0"])
  func othersGetTheTextIndexAtTheRoot(accept: String?) {
    var headers: HTTPFields = [:]
    if let accept { headers.append("accept", accept) }
    let answer = get("/", headers)
    #expect(answer.status == 200)
    #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")
    #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("gauged/test\n"))
  }

  @Test func theTextIndexHasItsOwnPathForBrowsersToo() {
    let answer = get("/index.txt", Self.browser)
    #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")
    #expect(String(decoding: answer.body, as: UTF8.self).contains("/index.txt"))
  }

  @Test func assetsHaveTheirTypes() {
    #expect(get("/assets/draw.mjs").headers["content-type"] == "text/javascript; charset=utf-8")
    #expect(get("/assets/dashboard.css").headers["content-type"] == "text/css; charset=utf-8")
    #expect(get("/assets/icon.svg").headers["content-type"] == "image/svg+xml")
    #expect(get("/playground/cpu", Self.browser).body == Array("<p>play</p>".utf8))
    #expect(get("/playground").status == 200)
  }

  @Test func unknownFilesAre404AndWritesAre405() {
    #expect(get("/assets/nothing.js").status == 404)
    #expect(get("/assets/../index.html").status == 404)
    let post = get("/assets/draw.mjs", method: "POST")
    #expect(post.status == 405)
    #expect(post.headers["allow"] == "GET, HEAD")
  }

  @Test func aMatchingETagGets304WithoutBody() {
    let first = get("/assets/draw.mjs")
    let tag = try! #require(first.headers["etag"])
    #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
    let again = get("/assets/draw.mjs", ["if-none-match": tag])
    #expect(again.status == 304)
    #expect(again.body.isEmpty)
    #expect(again.headers["etag"] == tag)
    #expect(get("/assets/draw.mjs", ["if-none-match": "W/\(tag)"]).status == 304)
    #expect(get("/assets/draw.mjs", ["if-none-match": "\"other\", \(tag)"]).status == 304)
    #expect(get("/assets/draw.mjs", ["if-none-match": "\"other\""]).status == 200)
    #expect(get("/assets/icon.svg", ["if-none-match": tag]).status == 200)
  }

  @Test func gzipWhenAcceptedAndSmaller() throws {
    let zipped = get("/", Self.browser.adding("accept-encoding", "gzip, deflate, br"))
    #expect(zipped.headers["content-encoding"] == "gzip")
    #expect(zipped.body.count < Self.page.count)
    #expect(zipped.body.prefix(2) == [0x1f, 0x8b])
    let tag = try #require(zipped.headers["etag"])
    #expect(tag != get("/", Self.browser).headers["etag"])
    // Either representation's tag revalidates: both are this version.
    #expect(get("/", Self.browser.adding("if-none-match", tag)).status == 304)
    let refused = get("/", Self.browser.adding("accept-encoding", "gzip;q=0, *"))
    #expect(refused.headers["content-encoding"] == nil)
    let anything = get("/", Self.browser.adding("accept-encoding", "*"))
    #expect(anything.headers["content-encoding"] == "gzip")
    // Six bytes gain nothing from gzip.
    #expect(get("/assets/icon.svg", ["accept-encoding": "gzip"]).headers["content-encoding"] == nil)
  }
}

extension HTTPFields {
  fileprivate func adding(_ name: String, _ value: String) -> HTTPFields {
    var copy = self
    copy.append(name, value)
    return copy
  }
}
