import Glibc

/// A counting POSIX semaphore: one thread waits, others signal.
// @unchecked Sendable: sem_t is made for use from many threads at once; its
// storage is allocated once and never moves.
final class Semaphore: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<sem_t>

  init(value: UInt32 = 0) {
    storage = .allocate(capacity: 1)
    sem_init(storage, 0, value)
  }

  deinit {
    sem_destroy(storage)
    storage.deallocate()
  }

  func signal() {
    sem_post(storage)
  }

  func wait() {
    while sem_wait(storage) != 0 {
      // Only EINTR can interrupt a wait on a valid semaphore.
    }
  }
}
