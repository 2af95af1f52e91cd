import GRPCTransport
import GaugeDomain
import Synchronization

/// Keeps gauged's own gauges (`SelfWidget`) as ordinary widgets: every
/// interval, the counters of every loop (`ServerMetrics.collect`) and the
/// store's figures become one sample, and each widget whose reading
/// changed since it was last written is put through `store`, the store
/// behind the faces' `ReservedPrefixStore`. A quiet server writes nothing.
public final class SelfWidgets: Sendable {
  public static let prefix = SelfWidget.prefix

  private let store: any WidgetStore
  private let metrics: ServerMetrics
  private let revision: @Sendable () -> UInt64
  private let storeQueueDepth: @Sendable () -> Int
  private let state = Mutex(State())

  private struct State {
    var previous: SelfGaugeSample?
    /// Changes made to the widgets since `previous` was taken.
    var ownWrites: UInt64 = 0
    /// What each widget was last written with.
    var written: [String: WidgetPut] = [:]
  }

  /// - Parameters:
  ///   - store: where the widgets are written, without the reserved prefix.
  ///   - revision: the store's last revision, to count writes by.
  public init(
    store: any WidgetStore, metrics: ServerMetrics, revision: @escaping @Sendable () -> UInt64,
    storeQueueDepth: @escaping @Sendable () -> Int
  ) {
    self.store = store
    self.metrics = metrics
    self.revision = revision
    self.storeQueueDepth = storeQueueDepth
  }

  /// Takes a sample and writes what changed; called every interval.
  public func refresh() {
    metrics.collect { [self] snapshot in
      let sample = SelfGaugeSample(
        snapshot, time: Double(MonotonicClock.milliseconds(.now)) / 1000, revision: revision(),
        storeQueueDepth: storeQueueDepth())
      record(sample)
    }
  }

  /// The first sample writes the widgets with rates of zero: it is the
  /// baseline the next one's rates are measured from.
  func record(_ sample: SelfGaugeSample) {
    state.withLock { state in
      // Two collections can finish out of order when loops are slow; the
      // older one has nothing to add.
      if let previous = state.previous, sample.time <= previous.time { return }
      let previous = state.previous ?? sample
      state.previous = sample
      let readings = SelfGaugeReadings(from: previous, to: sample, ownWrites: state.ownWrites)
      state.ownWrites = 0
      for widget in SelfWidget.allCases {
        let put = widget.put(widget.reading(readings))
        guard state.written[widget.id] != put else { continue }
        // Refused only while the store refuses every write (a full disk):
        // the next interval tries again.
        guard (try? store.put(put)) != nil else { continue }
        state.written[widget.id] = put
        state.ownWrites += 1
      }
    }
  }
}
