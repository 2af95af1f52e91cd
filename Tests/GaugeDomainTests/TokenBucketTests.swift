import Testing

@testable import GaugeDomain

@Suite struct TokenBucketTests {
  static let second: UInt64 = 1_000_000_000

  @Test func aFullBucketAllowsItsBurstThenRefusesWithTheWait() {
    var bucket = TokenBucket(rate: .init(perSecond: 10, burst: 3), now: 0)
    #expect(bucket.take(now: 0) == .allowed)
    #expect(bucket.take(now: 0) == .allowed)
    #expect(bucket.take(now: 0) == .allowed)
    // One token comes every 100 ms.
    #expect(bucket.take(now: 0) == .refused(retryAfterNanoseconds: Self.second / 10))
    #expect(bucket.take(now: Self.second / 20) == .refused(retryAfterNanoseconds: Self.second / 20))
    #expect(bucket.take(now: Self.second / 10) == .allowed)
  }

  @Test func refillStopsAtTheBurst() {
    var bucket = TokenBucket(rate: .init(perSecond: 100, burst: 5), now: 0)
    #expect(bucket.take(5, now: 0) == .allowed)
    #expect(bucket.available(now: 3600 * Self.second) == 5)
    #expect(
      bucket.take(6, now: 3600 * Self.second) == .refused(retryAfterNanoseconds: 60 * Self.second))
  }

  @Test func aRefusalTakesNothing() {
    var bucket = TokenBucket(rate: .init(perSecond: 1, burst: 2), now: 0)
    #expect(bucket.take(now: 0) == .allowed)
    #expect(bucket.take(2, now: 0) == .refused(retryAfterNanoseconds: Self.second))
    #expect(bucket.take(now: 0) == .allowed)
  }

  @Test func aClockGoingBackwardsAddsNothing() {
    var bucket = TokenBucket(rate: .init(perSecond: 1, burst: 1), now: 10 * Self.second)
    #expect(bucket.take(now: 10 * Self.second) == .allowed)
    #expect(bucket.available(now: 5 * Self.second) == 0)
    #expect(bucket.available(now: 11 * Self.second) == 1)
  }
}
