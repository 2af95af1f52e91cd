/// grpc-core's rule for the pings a server receives: a ping that comes
/// sooner than allowed after the previous one is a strike, and a peer with
/// more strikes than tolerated is sent away with "too_many_pings". Sending
/// the peer headers or data wipes the slate, since a busy connection's pings
/// (BDP probes, keepalives) are the client's business.
struct PingAbusePolicy {
  /// Without streams, pings are held to TCP keepalive's two hours (RFC 1122).
  static let idleInterval: Duration = .seconds(7200)

  let minInterval: Duration
  let maxStrikes: Int
  private var lastPing: ContinuousClock.Instant?
  private(set) var strikes = 0
  /// No ping since the last response: `responseSent` has nothing to wipe.
  /// Checked first because it is called for every frame of every response,
  /// and writing the optional `Instant` goes through value witnesses.
  private var slateIsClean = true

  init(minInterval: Duration, maxStrikes: Int) {
    self.minInterval = minInterval
    self.maxStrikes = maxStrikes
  }

  /// Records a ping; true when it was one strike too many.
  mutating func pingReceived(at now: ContinuousClock.Instant, idle: Bool) -> Bool {
    defer {
      lastPing = now
      slateIsClean = false
    }
    guard let lastPing, now < lastPing + (idle ? Self.idleInterval : minInterval) else {
      return false
    }
    strikes += 1
    return maxStrikes != 0 && strikes > maxStrikes
  }

  /// Headers or data went to the peer.
  mutating func responseSent() {
    guard !slateIsClean else { return }
    lastPing = nil
    strikes = 0
    slateIsClean = true
  }
}
