import GRPCCore
import GaugeDomain
import GaugeMetrics
import GaugeWire
import Synchronization

/// A token's request rates: one bucket for writes, a looser one for reads
/// and subscriptions, made on first use. One lock and one lookup per
/// request with a token; none without.
public final class RateLimiter: Sendable {
  public enum Kind: Sendable {
    case writes
    case reads
  }

  /// nil: that kind is not limited.
  public struct Limits: Sendable, Equatable {
    public var writes: TokenBucket.Rate?
    public var reads: TokenBucket.Rate?
    /// Subscriptions (gRPC, gRPC-Web, Connect, event streams) one token may
    /// hold open at once.
    public var subscriptions: Int
    /// Whether callers without a token are limited too, one set of buckets
    /// per client address: gauged does so when it serves without tokens on
    /// an address other machines reach.
    public var anonymous: Bool

    public init(
      writes: TokenBucket.Rate?, reads: TokenBucket.Rate?, subscriptions: Int = 100,
      anonymous: Bool = false
    ) {
      self.writes = writes
      self.reads = reads
      self.subscriptions = subscriptions
      self.anonymous = anonymous
    }

    /// `--rate-limit-writes 1000/s --rate-burst 2000`; reads ten times that;
    /// 100 subscriptions.
    public static let standard = Limits(
      writes: .init(perSecond: 1000, burst: 2000), reads: .init(perSecond: 10_000, burst: 20_000))
  }

  private struct Buckets {
    var writes: TokenBucket?
    var reads: TokenBucket?
    var subscriptions = 0
  }

  public let limits: Limits
  private let buckets = Mutex<[String: Buckets]>([:])
  private let clock: @Sendable () -> UInt64

  public init(limits: Limits, clock: @escaping @Sendable () -> UInt64 = NanosecondClock.now) {
    self.limits = limits
    self.clock = clock
  }

  /// Takes one request of `kind` from `key`'s bucket; `writeRate` is the
  /// token's own, when it has one.
  public func take(_ kind: Kind, key: String, writeRate: TokenBucket.Rate? = nil)
    -> TokenBucket.Decision
  {
    guard let rate = kind == .writes ? (writeRate ?? limits.writes) : limits.reads else {
      return .allowed
    }
    let now = clock()
    return buckets.withLock { all in
      var entry = all[key] ?? Buckets()
      var bucket = bucket(kind, of: entry) ?? TokenBucket(rate: rate, now: now)
      let decision = bucket.take(now: now)
      set(kind, bucket, in: &entry)
      all[key] = entry
      return decision
    }
  }

  /// How many of `count` writes `key` may make now (the first ones), and
  /// when the rest could be tried again.
  public func admitWrites(_ count: Int, key: String, rate writeRate: TokenBucket.Rate? = nil)
    -> (admitted: Int, retryAfterNanoseconds: UInt64)
  {
    guard let rate = writeRate ?? limits.writes else { return (count, 0) }
    let now = clock()
    return buckets.withLock { all in
      var entry = all[key] ?? Buckets()
      var bucket = entry.writes ?? TokenBucket(rate: rate, now: now)
      let admitted = min(count, bucket.available(now: now))
      if admitted > 0 { _ = bucket.take(Double(admitted), now: now) }
      var retryAfter: UInt64 = 0
      if admitted < count, case .refused(let wait) = bucket.take(now: now) { retryAfter = wait }
      entry.writes = bucket
      all[key] = entry
      return (admitted, retryAfter)
    }
  }

  /// A place among `key`'s open subscriptions, held until the slot is
  /// dropped; nil when all `limits.subscriptions` are taken.
  func openSubscription(key: String) -> SubscriptionSlot? {
    let opened = buckets.withLock { all in
      var entry = all[key] ?? Buckets()
      guard entry.subscriptions < limits.subscriptions else { return false }
      entry.subscriptions += 1
      all[key] = entry
      return true
    }
    return opened ? SubscriptionSlot(limiter: self, key: key) : nil
  }

  fileprivate func closeSubscription(key: String) {
    buckets.withLock { all in all[key]?.subscriptions -= 1 }
  }

  var tooManySubscriptions: String {
    "\(limits.subscriptions) subscriptions are open already, as many as one token (or one"
      + " client without a token) may hold"
  }

  /// The buckets' key for a caller without a token at `peer` (`HOST:PORT`,
  /// `[V6]:PORT` or `unix:PATH`): its host, every connection from it
  /// sharing them. nil when such callers are not limited.
  public func anonymousKey(peer: String?) -> String? {
    guard limits.anonymous else { return nil }
    guard let peer else { return "address:?" }
    if peer.hasPrefix("unix:") { return "address:unix" }
    guard let colon = peer.lastIndex(of: ":") else { return "address:" + peer }
    return "address:" + peer[..<colon]
  }

  private func bucket(_ kind: Kind, of entry: Buckets) -> TokenBucket? {
    switch kind {
    case .writes: entry.writes
    case .reads: entry.reads
    }
  }

  private func set(_ kind: Kind, _ bucket: TokenBucket, in entry: inout Buckets) {
    switch kind {
    case .writes: entry.writes = bucket
    case .reads: entry.reads = bucket
    }
  }

  /// RESOURCE_EXHAUSTED with a `google.rpc.RetryInfo` saying when to retry.
  public static func exhausted(_ kind: Kind, retryAfterNanoseconds: UInt64) -> GRPCStatus {
    let message =
      "too many \(kind == .writes ? "writes" : "reads"); retry in "
      + "\(max(1, (retryAfterNanoseconds + 999_999) / 1_000_000)) ms"
    return GRPCStatus(
      .resourceExhausted, message,
      details: StatusDetailsWire.encodeRetryInfo(
        code: GRPCStatus.Code.resourceExhausted.rawValue, message: message,
        retryAfterNanoseconds: retryAfterNanoseconds))
  }
}

/// What a PublishValues stream asks of the limiter for each batch.
struct WriteAllowance {
  let limiter: RateLimiter
  let key: String
  let rate: TokenBucket.Rate?
}

/// One open subscription counted against its token; gives its place back
/// when dropped.
final class SubscriptionSlot: Sendable {
  private let limiter: RateLimiter
  private let key: String

  fileprivate init(limiter: RateLimiter, key: String) {
    self.limiter = limiter
    self.key = key
  }

  deinit {
    limiter.closeSubscription(key: key)
  }
}
