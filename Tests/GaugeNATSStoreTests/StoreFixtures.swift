import GaugeDomain
import GaugeNATS
import GaugeNATSStore
import NATSTesting
import Synchronization

/// The changes a store's observer was handed, in order.
final class ChangeRecorder: Sendable {
  private let changes = Mutex<[WidgetChange]>([])

  func record(_ change: WidgetChange) {
    changes.withLock { $0.append(change) }
  }

  var all: [WidgetChange] { changes.withLock { $0 } }
}

/// A store on its own connection to `server`'s bucket `gauged`, once its
/// replica has loaded.
func loadedStore(
  _ server: NATSServerProcess, recorder: ChangeRecorder? = nil, appliedWaitMs: Int64 = 5_000,
  clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds
) async throws -> NATSWidgetStore {
  let bucket = try await openBucket([server.url], KVBucketSettings(name: "gauged"))
  let store = try NATSWidgetStore(
    bucket: bucket, clock: clock, appliedWaitMs: appliedWaitMs,
    observer: recorder.map { $0.record })
  try await waitUntil("the replica loaded") { store.isLoaded }
  return store
}

/// A gauge widget with `label`.
func gauge(_ id: String, value: Double = 1, label: String = "cpu") -> WidgetPut {
  WidgetPut(
    id: id, name: id,
    content: ContentPatch(
      template: .gauge(GaugePatch(value: value, minValue: 0, maxValue: 100)), label: label))
}

/// The store's widget `id`, or nil when it has none.
func widget(_ id: String, in store: NATSWidgetStore) -> Widget? {
  try? store.get(id: id)
}

/// A clock the test moves by hand, in Unix milliseconds.
final class HandClock: Sendable {
  private let now = Mutex<Int64>(1_000_000)

  func read() -> Int64 { now.withLock { $0 } }

  func advance(byMs milliseconds: Int64) { now.withLock { $0 += milliseconds } }
}
