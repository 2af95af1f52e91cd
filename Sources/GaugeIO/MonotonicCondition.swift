import Glibc

/// A pthread mutex and a condition variable whose timed waits run on the
/// monotonic clock: Synchronization has no condition variable, and a
/// wall-clock timeout would stretch when the clock is set back. What it
/// guards lives with its owner, touched only inside `withLock`.
///
/// @unchecked Sendable: the pthread objects live at fixed heap addresses
/// for the object's life and are used only through pthread's own calls.
public final class MonotonicCondition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
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

  /// Runs `body` with the mutex held.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Inside `withLock`: releases the mutex until woken, or until the
  /// monotonic clock reaches `deadline` (nanoseconds) when one is given;
  /// false once the deadline has passed. Wake-ups may be spurious: callers
  /// wait in a loop on what they guard.
  public func wait(untilNanoseconds deadline: UInt64? = nil) -> Bool {
    guard let deadline else {
      pthread_cond_wait(condition, mutex)
      return true
    }
    var until = timespec(
      tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
  }

  /// Inside `withLock`: wakes one waiter.
  public func signal() { pthread_cond_signal(condition) }

  /// Inside `withLock`: wakes every waiter.
  public func broadcast() { pthread_cond_broadcast(condition) }

  /// The monotonic clock the deadlines are on.
  public static func nowNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
