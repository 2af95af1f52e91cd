import GaugeDomain
import GaugeWire

/// What `gaugectl watch` knows, built from Subscribe events: the widgets,
/// whether the view is live, and where to resume after a lost connection.
/// Pure state; the session feeds it and the renderer reads it.
public struct WatchModel: Sendable, Equatable {
  public enum Phase: Sendable, Equatable {
    /// Before the first answer; `attempt` counts tries.
    case connecting(attempt: Int)
    /// Subscribed; the snapshot or catch-up is arriving.
    case syncing
    /// Synced: every widget shown is the server's current state.
    case live
    /// The connection is gone; what is shown is as old as it says.
    /// `attempt` counts tries since the last sync (0 until the first retry).
    case disconnected(attempt: Int, reason: String)
  }

  public private(set) var phase: Phase = .connecting(attempt: 1)
  public private(set) var widgets: [String: Widget] = [:]
  /// The revision of the last `synced`: resuming from it misses nothing.
  public private(set) var resumeRevision: UInt64?
  /// Between a `reset` and its `synced`, the new snapshot collects here and
  /// replaces `widgets` whole once complete.
  private var replacement: [String: Widget]?
  private var attempts = 0

  public init() {}

  /// Only a synced view is fresh; anything else is drawn as stale.
  public var isLive: Bool { phase == .live }

  /// A connection attempt starts.
  public mutating func connecting() {
    attempts += 1
    if case .disconnected(_, let reason) = phase {
      phase = .disconnected(attempt: attempts, reason: reason)
    } else if resumeRevision == nil {
      phase = .connecting(attempt: attempts)
    }
  }

  /// The Subscribe call is open.
  public mutating func subscribed() {
    if case .disconnected = phase { return }  // stale until synced
    phase = .syncing
  }

  public mutating func apply(_ event: WidgetEventWire) {
    switch event {
    case .upsert(let widget):
      if replacement != nil {
        replacement![widget.id] = widget
      } else {
        widgets[widget.id] = widget
      }
    case .removed(let id, _):
      if replacement != nil {
        replacement![id] = nil
      } else {
        widgets[id] = nil
      }
    case .value(let id, let value, let updatedAtMs, let revision):
      // Only for a widget the stream sent whole before; one it did not is
      // left alone rather than made up.
      let change = ValueChange(id: id, value: value, revision: revision, updatedAtMs: updatedAtMs)
      if replacement != nil {
        if var widget = replacement![id] {
          change.apply(to: &widget)
          replacement![id] = widget
        }
      } else if var widget = widgets[id] {
        change.apply(to: &widget)
        widgets[id] = widget
      }
    case .reset:
      replacement = [:]
    case .synced(let revision):
      if let replacement { widgets = replacement }
      replacement = nil
      resumeRevision = revision
      phase = .live
      attempts = 0
    }
  }

  /// The stream or connection ended; keep what is known, marked stale.
  public mutating func connectionLost(reason: String) {
    replacement = nil
    phase = .disconnected(attempt: attempts, reason: reason)
  }

  /// The widgets to show: in the order `ids` lists them (those not known
  /// left out), or by id when no ids were asked for.
  public func ordered(ids: [String]) -> [Widget] {
    guard !ids.isEmpty else { return widgets.keys.sorted().map { widgets[$0]! } }
    var seen = Set<String>()
    return ids.compactMap { id in
      guard seen.insert(id).inserted else { return nil }
      return widgets[id]
    }
  }
}
