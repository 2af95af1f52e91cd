import CNGHTTP2
import Testing

@testable import GRPCTransport

/// Pings as grpc-core polices them, and the server's own keepalive pings.
@Suite struct KeepaliveTests {
  private let calm = NGHTTP2_ENHANCE_YOUR_CALM.rawValue

  @Test func idlePeerPingingGetsTwoStrikesThenTooManyPings() {
    let (client, _, scheduler) = makeConnection { $0.idleTimeout = nil }
    for _ in 0..<3 {
      client.ping()
      client.exchange()
      // Even a wide gap is a strike without calls: the bar is two hours.
      scheduler.advance(by: .seconds(600))
    }
    #expect(client.pingAcksReceived == 3)
    #expect(client.goAways.isEmpty)
    client.ping()
    client.exchange()
    #expect(client.goAways == [.init(lastStreamID: 0, errorCode: calm, debug: "too_many_pings")])
    #expect(!client.server.isAlive)
  }

  @Test func pingsTwoHoursApartWithoutCallsAreFine() {
    let (client, _, scheduler) = makeConnection { $0.idleTimeout = nil }
    for _ in 0..<5 {
      client.ping()
      client.exchange()
      scheduler.advance(by: .seconds(7200))
    }
    #expect(client.goAways.isEmpty)
  }

  @Test func duringACallPingsMustBeTheMinimumIntervalApart() {
    let (client, _, scheduler) = makeConnection()
    client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    for _ in 0..<5 {
      client.ping()
      client.exchange()
      scheduler.advance(by: .seconds(300))
    }
    #expect(client.goAways.isEmpty)
    // One on time, then three strikes.
    for _ in 0..<3 {
      client.ping()
      client.exchange()
      scheduler.advance(by: .seconds(299))
    }
    #expect(client.goAways.isEmpty)
    client.ping()
    client.exchange()
    #expect(client.goAways.last?.debug == "too_many_pings")
  }

  @Test func sendingDataClearsTheStrikes() {
    let (client, service, _) = makeConnection()
    client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    let call = service.handlers[0].call
    for round in 0..<4 {
      for _ in 0..<3 {
        client.ping()
        client.exchange()
      }
      // What a grpc client's BDP pings ride on.
      call.send(message: [UInt8(round)])
      client.exchange()
    }
    #expect(client.goAways.isEmpty)
    #expect(client.server.isAlive)
  }

  @Test func strikesCanBeTurnedOff() {
    let (client, _, _) = makeConnection { $0.keepalive.maxPingStrikes = 0 }
    for _ in 0..<20 {
      client.ping()
      client.exchange()
    }
    #expect(client.goAways.isEmpty)
    #expect(client.pingAcksReceived == 20)
  }

  @Test func serverPingsAQuietPeerThatAnswers() {
    let (client, _, scheduler) = makeConnection { configuration in
      configuration.keepalive.interval = .seconds(10)
      configuration.keepalive.timeout = .seconds(2)
    }
    client.exchange()
    for round in 1...3 {
      scheduler.advance(by: .seconds(10))
      client.exchange()
      #expect(client.pingsReceived == round)
      scheduler.advance(by: .seconds(2))
      #expect(client.server.isAlive)
      #expect(!client.server.abandoned)
    }
  }

  @Test func peerThatLeavesAPingUnansweredIsAbandoned() {
    let (client, _, scheduler) = makeConnection { configuration in
      configuration.keepalive.interval = .seconds(10)
      configuration.keepalive.timeout = .seconds(2)
    }
    client.exchange()
    scheduler.advance(by: .seconds(10))
    // The ping is queued, but the peer is gone and never answers.
    scheduler.advance(by: .milliseconds(1999))
    #expect(!client.server.abandoned)
    scheduler.advance(by: .milliseconds(1))
    #expect(client.server.abandoned)
    #expect(!client.server.isAlive)
  }

  @Test func trafficFromThePeerPostponesThePing() {
    let (client, _, scheduler) = makeConnection { configuration in
      configuration.keepalive.interval = .seconds(10)
    }
    client.exchange()
    scheduler.advance(by: .seconds(6))
    client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"), body: framed([1]))
    client.exchange()
    scheduler.advance(by: .seconds(6))
    client.exchange()
    #expect(client.pingsReceived == 0)
    scheduler.advance(by: .seconds(4))
    client.exchange()
    #expect(client.pingsReceived == 1)
  }
}
