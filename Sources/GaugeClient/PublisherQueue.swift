import GRPCCore
import GaugeWire
import Synchronization

/// The producers' side of a `ValuePublisher`: credits for the stream's
/// window, the values not yet handed to the loop (framed, one after
/// another, so a batch goes to the call in one piece), and the tasks
/// waiting for credits. Any thread.
final class PublisherQueue: Sendable {
  private let state: Mutex<State>

  private struct State {
    var credits: Int
    /// Framed values not yet handed to the loop, and how many.
    var outbox: [UInt8] = []
    var outboxCount = 0
    /// Each widget's ValueUpdate, encoded once: a value for it again
    /// rewrites only the value's bytes.
    var messages: [String: TrailingValueMessage] = [:]
    /// The last widget's, which a producer of one widget's values asks for
    /// every time: comparing ids costs less than hashing one. (The first
    /// is a true pair too: the update for the empty id.)
    var lastID = ""
    var lastMessage = TrailingValueMessage.valueUpdate(id: "")
    var drainQueued = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// Set when the call ended (or failed to start).
    var failure: GaugeError?
    var finishing = false
  }

  /// What `offer` did.
  enum Offer {
    /// Queued; a drain is already on its way to the loop.
    case queued
    /// Queued; the caller must schedule the drain.
    case queuedNeedsDrain
    /// No credit: wait, then offer again.
    case full
    /// The stream cannot take values any more.
    case failed(GaugeError)
  }

  init(window: Int) {
    state = Mutex(State(credits: window))
  }

  /// Widgets whose encoded update is kept; past it the cache starts over,
  /// so a publisher to ever new ids does not grow without bound.
  static let rememberedWidgets = 4096

  func offer(id: String, value: Double) -> Offer {
    state.withLock { state in
      if let failure = state.failure { return .failed(failure) }
      if state.finishing {
        return .failed(
          GaugeError(code: .failedPrecondition, message: "send after finish() on a publisher"))
      }
      guard state.credits > 0 else { return .full }
      state.credits -= 1
      if state.lastID != id {
        if let known = state.messages[id] {
          state.lastMessage = known
        } else {
          if state.messages.count == Self.rememberedWidgets { state.messages = [:] }
          state.lastMessage = .valueUpdate(id: id)
          state.messages[id] = state.lastMessage
        }
        state.lastID = id
      }
      Self.frame(state.lastMessage, value: value, into: &state.outbox)
      state.outboxCount += 1
      if state.drainQueued { return .queued }
      state.drainQueued = true
      return .queuedNeedsDrain
    }
  }

  private static func frame(
    _ message: TrailingValueMessage, value: Double, into outbox: inout [UInt8]
  ) {
    MessageFramer.append(size: message.bytes.count, to: &outbox) {
      message.write(value: value, to: $0)
    }
  }

  /// Suspends until a credit may be free, the stream ends, or the task is
  /// cancelled (then throws `cancelled`).
  func waitForCredit() async throws(GaugeError) {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state in
          if state.credits > 0 || state.failure != nil || Task.isCancelled { return true }
          state.waiters.append(continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      // Every waiter wakes and looks again; only the cancelled one leaves.
      wakeAll { _ in }
    }
    if Task.isCancelled { throw .cancelled }
  }

  /// The values queued since the last drain, framed, and how many.
  func takeOutbox() -> (framed: [UInt8], count: Int) {
    state.withLock { state in
      state.drainQueued = false
      defer {
        state.outbox = []
        state.outboxCount = 0
      }
      return (state.outbox, state.outboxCount)
    }
  }

  /// HTTP/2 took `count` values: their credits come back.
  func returnCredits(_ count: Int) {
    wakeAll { $0.credits += count }
  }

  /// The stream ended: producers stop with `error`.
  func fail(_ error: GaugeError) {
    wakeAll { state in
      if state.failure == nil { state.failure = error }
    }
  }

  /// `finish()` began: no more values.
  func beginFinishing() {
    state.withLock { $0.finishing = true }
  }

  private func wakeAll(after change: (inout State) -> Void) {
    let waiters = state.withLock { state in
      change(&state)
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
