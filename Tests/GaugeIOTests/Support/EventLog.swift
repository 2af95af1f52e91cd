import Synchronization

/// Lines recorded by handlers on the loop thread and read by the test.
final class EventLog: Sendable {
  private let entries = Mutex<[String]>([])

  func record(_ entry: String) {
    entries.withLock { $0.append(entry) }
  }

  var snapshot: [String] {
    entries.withLock { $0 }
  }

  /// Polls until `condition` holds for the recorded lines, or `timeout` passes.
  @discardableResult
  func wait(
    timeout: Duration = .seconds(5), until condition: ([String]) -> Bool
  ) async -> [String] {
    let deadline = ContinuousClock.now + timeout
    while true {
      let lines = snapshot
      if condition(lines) || ContinuousClock.now >= deadline { return lines }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  @discardableResult
  func wait(timeout: Duration = .seconds(5), forCount count: Int) async -> [String] {
    await wait(timeout: timeout) { $0.count >= count }
  }

  @discardableResult
  func wait(timeout: Duration = .seconds(5), for entry: String) async -> [String] {
    await wait(timeout: timeout) { $0.contains(entry) }
  }
}
