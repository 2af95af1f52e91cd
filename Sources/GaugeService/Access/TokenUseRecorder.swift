import GaugeAuth
import GaugeDomain
import GaugeIO
import GaugeLog
import Glibc
import Synchronization

/// Writes when tokens were last used to the store, every `interval` on a
/// thread of its own (a write waits for the disk, which no event loop
/// should) and once more when gauged stops: the registry marks uses in
/// memory on every request; only those since the last write go to disk.
public final class TokenUseRecorder: Sendable {
  private let registry: TokenRegistry
  private let persistence: any TokenPersistence
  private let log: EventLog?
  /// Held while writing, so that `finish` waits for a write in progress
  /// and none starts after it.
  private let finished = Mutex(false)

  public init(registry: TokenRegistry, persistence: any TokenPersistence, log: EventLog? = nil) {
    self.registry = registry
    self.persistence = persistence
    self.log = log
  }

  /// Starts the thread that writes every `interval` (whole seconds).
  public func start(every interval: Duration) throws(IOError) {
    let seconds = max(1, Int(interval.components.seconds))
    _ = try PosixThread.spawn(name: "gauged-tokenuse") { [self] in
      while true {
        // A second at a time, so that a stopped recorder's thread ends soon.
        for _ in 0..<seconds {
          sleep(1)
          if finished.withLock({ $0 }) { return }
        }
        record()
      }
    }
  }

  /// Writes the uses since the last write, unless finished.
  public func record() {
    finished.withLock { finished in
      guard !finished else { return }
      write()
    }
  }

  /// Writes what is left and stops: call before the store closes.
  public func finish() {
    finished.withLock { finished in
      guard !finished else { return }
      write()
      finished = true
    }
  }

  private func write() {
    let uses = registry.takeUses()
    guard !uses.isEmpty else { return }
    do {
      try persistence.recordUses(uses)
    } catch {
      // In memory the times are right; the next use of each token marks
      // it again for the next write.
      log?.warn(
        "token_uses_not_recorded", "gauged: \(error)", [LogField("error", error.description)])
    }
  }
}
