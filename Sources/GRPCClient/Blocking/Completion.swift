import Synchronization

/// A value produced once on one thread and awaited on another.
final class Completion<Value: Sendable>: Sendable {
  private let value = Mutex<Value?>(nil)
  private let ready = Semaphore()

  /// Later calls are ignored.
  func fulfil(_ result: Value) {
    let first = value.withLock { stored in
      guard stored == nil else { return false }
      stored = result
      return true
    }
    if first { ready.signal() }
  }

  var isFulfilled: Bool { value.withLock { $0 != nil } }

  /// Blocks until `fulfil`.
  func wait() -> Value {
    ready.wait()
    ready.signal()  // later waiters return at once
    return value.withLock { $0! }
  }
}
