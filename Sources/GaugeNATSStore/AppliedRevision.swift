import Glibc

/// The last revision the replica has applied, with waits for a later one:
/// a write returns once the watch has brought its own change back, so the
/// answer and later reads on this instance agree. Synchronization has no
/// condition variable, hence pthread's, timed on the monotonic clock.
///
/// @unchecked Sendable: `applied` is only touched with `mutex` held, and the
/// pthread objects live at fixed heap addresses for the object's life.
final class AppliedRevision: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var applied: UInt64 = 0

  init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func advance(to revision: UInt64) {
    pthread_mutex_lock(mutex)
    if revision > applied {
      applied = revision
      pthread_cond_broadcast(condition)
    }
    pthread_mutex_unlock(mutex)
  }

  /// Waits until `revision` has been applied, for at most `timeoutMs`;
  /// whether it was.
  @discardableResult
  func wait(for revision: UInt64, timeoutMs: Int64) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let nanoseconds = Int(deadline.tv_nsec) + Int(timeoutMs % 1000) * 1_000_000
    deadline.tv_sec += Int(timeoutMs / 1000) + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while applied < revision {
      if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
    }
    return applied >= revision
  }
}
