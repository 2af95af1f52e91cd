import Glibc
import Synchronization

/// Results handed from event-loop threads to the main thread, which blocks
/// until as many as it expects have arrived.
//
// @unchecked Sendable: the values sit behind a Mutex, and a POSIX semaphore
// is made for posting and waiting from different threads; its storage is
// allocated once and never moves.
final class Rendezvous<Value: Sendable>: @unchecked Sendable {
  private let values = Mutex<[Value]>([])
  private let semaphore: UnsafeMutablePointer<sem_t>
  private let taken = Mutex(0)

  init() {
    semaphore = .allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
  }

  deinit {
    sem_destroy(semaphore)
    semaphore.deallocate()
  }

  func deliver(_ value: Value) {
    values.withLock { $0.append(value) }
    sem_post(semaphore)
  }

  /// Waits until `count` values in all have been delivered and returns
  /// them; nil when `timeout` passes first.
  func wait(for count: Int, timeout: Duration? = nil) -> [Value]? {
    let deadline = timeout.map { absoluteRealtime(after: $0) }
    while taken.withLock({ $0 }) < count {
      if var deadline {
        guard sem_timedwait(semaphore, &deadline) == 0 else {
          if errno == EINTR { continue }
          return nil
        }
      } else if sem_wait(semaphore) != 0 {
        continue  // EINTR
      }
      taken.withLock { $0 += 1 }
    }
    return values.withLock { $0 }
  }

  /// sem_timedwait measures against CLOCK_REALTIME.
  private func absoluteRealtime(after duration: Duration) -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let (seconds, attoseconds) = duration.components
    let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
    return timespec(
      tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
      tv_nsec: nanoseconds % 1_000_000_000)
  }
}
