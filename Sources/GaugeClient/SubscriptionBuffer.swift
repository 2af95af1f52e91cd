import Synchronization

/// Events on their way from a subscription's loop to the one task that
/// reads them. The loop appends; the reader takes everything waiting in
/// one lock and then serves it from its own copy, so an event costs the
/// reader an array read, not a lock and a task switch each.
final class SubscriptionBuffer: Sendable {
  /// What a reader gets from `take`.
  enum Taken {
    /// One or more events, oldest first.
    case events([SubscriptionEvent])
    /// The subscription ended: the client closed, or the reader stopped.
    case finished
    /// The subscription ended with a failure that another try would only
    /// repeat. Reported once; `finished` follows.
    case failed(GaugeError)
  }

  private struct State {
    var events: [SubscriptionEvent] = []
    var phase = Phase.open
    var waiter: CheckedContinuation<Void, Never>?
  }

  private enum Phase {
    case open
    /// The loop ended it; the reader still gets the events before this.
    case ending(GaugeError?)
    /// The reader was told, or stopped reading: nothing more is kept.
    case closed
  }

  private let state = Mutex(State())

  // MARK: The loop's side

  /// Appends `event` for the reader; false once the reader stopped.
  @discardableResult
  func append(_ event: SubscriptionEvent) -> Bool {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>?? in
      guard case .open = state.phase else { return nil }
      state.events.append(event)
      defer { state.waiter = nil }
      return .some(state.waiter)
    }
    guard let waiter else { return false }
    waiter?.resume()
    return true
  }

  /// No more events: the reader gets those waiting, then the end
  /// (`failure`, when there is one).
  func finish(failure: GaugeError?) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard case .open = state.phase else { return nil }
      state.phase = .ending(failure)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  // MARK: The reader's side

  /// Everything waiting, suspending while nothing is; `finished` when the
  /// task is cancelled (and from then on).
  func take(isolation actor: isolated (any Actor)?) async -> Taken {
    while true {
      if Task.isCancelled {
        close()
        return .finished
      }
      if let taken = takeWaiting() { return taken }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let resumeNow = state.withLock { state in
            guard state.events.isEmpty, case .open = state.phase, !Task.isCancelled else {
              return true
            }
            state.waiter = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      } onCancel: {
        let waiter = state.withLock { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume()
      }
    }
  }

  /// The reader stopped: the loop's appends are dropped from now on.
  func close() {
    let waiter = state.withLock { state in
      state.phase = .closed
      state.events = []
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Whether the reader stopped (or was told the end).
  var isClosed: Bool {
    state.withLock { if case .closed = $0.phase { true } else { false } }
  }

  private func takeWaiting() -> Taken? {
    state.withLock { state in
      if !state.events.isEmpty {
        defer { state.events = [] }
        return .events(state.events)
      }
      switch state.phase {
      case .open:
        return nil
      case .ending(let failure):
        state.phase = .closed
        return failure.map { .failed($0) } ?? .finished
      case .closed:
        return .finished
      }
    }
  }
}
