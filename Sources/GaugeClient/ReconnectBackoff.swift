/// How long a subscription waits before its next connection attempt:
/// 100 ms doubling to at most 3.2 s, each picked at random between half
/// and all of that, so that many clients do not come back in step.
struct ReconnectBackoff {
  private(set) var failures = 0

  static let first = Duration.milliseconds(100)
  static let longest = Duration.milliseconds(3200)

  /// The wait after one more failure.
  mutating func next() -> Duration {
    failures += 1
    let ceiling = min(Self.first * (1 << min(failures - 1, 5)), Self.longest)
    let milliseconds =
      Int(ceiling.components.seconds) * 1000
      + Int(ceiling.components.attoseconds / 1_000_000_000_000_000)
    return .milliseconds(Int.random(in: (milliseconds / 2)...milliseconds))
  }

  /// A connection worked: the next failure waits the shortest time again.
  mutating func reset() {
    failures = 0
  }
}
