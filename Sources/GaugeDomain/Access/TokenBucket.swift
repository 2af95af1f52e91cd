/// A token bucket: holds up to `burst` tokens, gains `perSecond` of them
/// each second, and each request takes some. Pure: the caller passes the
/// time (monotonic nanoseconds), so tests need no clock.
public struct TokenBucket: Sendable, Equatable {
  public struct Rate: Sendable, Equatable {
    public var perSecond: Double
    public var burst: Double

    public init(perSecond: Double, burst: Double) {
      self.perSecond = perSecond
      self.burst = burst
    }
  }

  public enum Decision: Sendable, Equatable {
    case allowed
    /// Not enough tokens; the request may be tried again after this long.
    case refused(retryAfterNanoseconds: UInt64)
  }

  public let rate: Rate
  private var tokens: Double
  private var updatedAt: UInt64

  /// A full bucket at `now`.
  public init(rate: Rate, now: UInt64) {
    self.rate = rate
    self.tokens = rate.burst
    self.updatedAt = now
  }

  /// Takes `count` tokens if the bucket holds them at `now`; otherwise takes
  /// none and says when it will.
  public mutating func take(_ count: Double = 1, now: UInt64) -> Decision {
    refill(now: now)
    if tokens >= count {
      tokens -= count
      return .allowed
    }
    guard rate.perSecond > 0, count <= rate.burst else {
      // It will never hold that many: a minute is as good an answer as any.
      return .refused(retryAfterNanoseconds: 60_000_000_000)
    }
    let seconds = (count - tokens) / rate.perSecond
    return .refused(retryAfterNanoseconds: UInt64((seconds * 1e9).rounded(.up)))
  }

  /// How many whole tokens the bucket holds at `now` (for a batch: take
  /// that many, refuse the rest).
  public mutating func available(now: UInt64) -> Int {
    refill(now: now)
    return Int(tokens.rounded(.down))
  }

  private mutating func refill(now: UInt64) {
    // A clock that went backwards (it should not) adds nothing.
    guard now > updatedAt else { return }
    let elapsed = Double(now - updatedAt) / 1e9
    tokens = min(rate.burst, tokens + elapsed * rate.perSecond)
    updatedAt = now
  }
}
