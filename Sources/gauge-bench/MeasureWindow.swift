import Synchronization

/// The span of monotonic time whose results count: events and calls that
/// complete inside it are tallied, the rest are warm-up or drain. Set by
/// the main thread, read on every loop.
final class MeasureWindow: Sendable {
  private let startNanos = Atomic<UInt64>(.max)
  private let endNanos = Atomic<UInt64>(.max)

  init() {}

  init(start: UInt64, end: UInt64) {
    set(start: start, end: end)
  }

  func set(start: UInt64, end: UInt64) {
    endNanos.store(end, ordering: .relaxed)
    startNanos.store(start, ordering: .relaxed)
  }

  var start: UInt64 { startNanos.load(ordering: .relaxed) }
  var end: UInt64 { endNanos.load(ordering: .relaxed) }

  func contains(_ nanos: UInt64) -> Bool {
    nanos >= start && nanos < end
  }

  /// Past the end: producers stop.
  func isOver(at nanos: UInt64) -> Bool {
    nanos >= end
  }

  var seconds: Double {
    MonotonicNanos.seconds(end &- start)
  }
}
