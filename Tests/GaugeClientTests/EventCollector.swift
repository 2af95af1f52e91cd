import GaugeClient
import Synchronization

/// Reads a subscription in a task of its own and keeps what arrived, for
/// tests to look at while it runs.
final class EventCollector: Sendable {
  private let events = Mutex<[SubscriptionEvent]>([])
  private let ending = Mutex<GaugeError??>(nil)
  private let task = Mutex<Task<Void, Never>?>(nil)

  init(_ subscription: WidgetSubscription) {
    let started = Task { [self] in
      do {
        for try await event in subscription {
          self.events.withLock { $0.append(event) }
        }
        self.ending.withLock { $0 = .some(nil) }
      } catch {
        let failure = error as? GaugeError ?? GaugeError(code: .unknown, message: "\(error)")
        self.ending.withLock { $0 = .some(failure) }
      }
    }
    task.withLock { $0 = started }
  }

  var received: [SubscriptionEvent] { events.withLock { $0 } }

  /// nil while running; `.some(nil)` after a normal end.
  var ended: GaugeError?? { ending.withLock { $0 } }

  func cancel() {
    task.withLock { $0?.cancel() }
  }

  /// Waits until an event matches, at most `seconds`.
  func waitFor(
    seconds: Double = 30, _ matches: @escaping (SubscriptionEvent) -> Bool
  ) async -> Bool {
    await eventually(seconds: seconds) { received.contains(where: matches) }
  }

  /// The events after the first one matching `marker` (all when none does).
  func events(after count: Int) -> ArraySlice<SubscriptionEvent> {
    received.dropFirst(count)
  }
}

extension SubscriptionEvent {
  var isSynced: Bool {
    if case .synced = self { return true }
    return false
  }

  var isReset: Bool {
    if case .reset = self { return true }
    return false
  }

  /// The widget of a snapshot or upsert event.
  var widget: Widget? {
    switch self {
    case .snapshot(let widget), .upsert(let widget): widget
    default: nil
    }
  }
}
