import GaugeNATS
import NATSTesting
import Synchronization

/// Events a callback watch delivered, read from the test's task.
final class EventRecorder: Sendable {
  private let state = Mutex<(events: [KVWatchEvent], finished: Bool)>(([], false))

  var handler: @Sendable (KVWatchEvent) -> Void {
    { event in self.state.withLock { $0.events.append(event) } }
  }

  var finished: @Sendable () -> Void {
    { self.state.withLock { $0.finished = true } }
  }

  var events: [KVWatchEvent] { state.withLock { $0.events } }
  var isFinished: Bool { state.withLock { $0.finished } }

  /// Waits (30 s at most) until `count` events have come, and returns them.
  func waitForEvents(_ count: Int) async throws -> [KVWatchEvent] {
    try await waitUntil("\(count) watch events") { self.events.count >= count }
    return events
  }
}
