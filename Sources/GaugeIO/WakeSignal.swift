import Glibc

/// A latched wake-up for a worker thread (the SQLite store's writer, the
/// NATS store's value puts), with timed waits on the monotonic clock
/// (Synchronization has no condition variable, and a
/// wall-clock timeout would stretch when the clock is set back). A signal
/// sent while nobody waits is kept for the next wait.
///
/// @unchecked Sendable: `signalled` is only touched with `mutex` held, and
/// the pthread objects live at fixed heap addresses for the object's life.
public final class WakeSignal: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var signalled = false

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

  public func signal() {
    pthread_mutex_lock(mutex)
    signalled = true
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Until signalled, or until the monotonic clock reaches `deadline`
  /// (nanoseconds) when one is given. Consumes the signal.
  public func wait(untilNanoseconds deadline: UInt64? = nil) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while !signalled {
      guard let deadline else {
        pthread_cond_wait(condition, mutex)
        continue
      }
      var until = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
      if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT { return }
    }
    signalled = false
  }

  /// The monotonic clock the deadlines are on.
  public static func nowNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
