import GaugeIO

/// The last revision the replica has applied, with waits for a later one:
/// a write returns once the watch has brought its own change back, so the
/// answer and later reads on this instance agree.
///
/// @unchecked Sendable: `applied` is only touched inside the condition's
/// lock.
final class AppliedRevision: @unchecked Sendable {
  private let condition = MonotonicCondition()
  private var applied: UInt64 = 0

  func advance(to revision: UInt64) {
    condition.withLock {
      guard revision > applied else { return }
      applied = revision
      condition.broadcast()
    }
  }

  /// Waits until `revision` has been applied, for at most `timeoutMs`;
  /// whether it was.
  @discardableResult
  func wait(for revision: UInt64, timeoutMs: Int64) -> Bool {
    let deadline =
      MonotonicCondition.nowNanoseconds() + UInt64(max(0, timeoutMs)) * 1_000_000
    return condition.withLock {
      while applied < revision {
        guard condition.wait(untilNanoseconds: deadline) else { break }
      }
      return applied >= revision
    }
  }
}
