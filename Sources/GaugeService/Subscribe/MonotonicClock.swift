/// Milliseconds on the continuous clock, from an arbitrary fixed origin:
/// the queue's interval arithmetic wants plain integers.
enum MonotonicClock {
  private static let origin = ContinuousClock.now

  static func milliseconds(_ instant: ContinuousClock.Instant) -> Int64 {
    let elapsed = origin.duration(to: instant).components
    return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
  }
}
