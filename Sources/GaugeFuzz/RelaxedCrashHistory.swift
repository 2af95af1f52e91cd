import GaugeDomain

/// What a relaxed-mode store may hold after a crash: the state after some
/// prefix of the writes since it last closed or crashed. Relaxed mode
/// acknowledges before the commit, so a crash may lose the newest writes;
/// but the writer commits whole changes, oldest first, one batch per
/// transaction, so the file never holds part of a write, nor a write
/// without every write before it.
struct RelaxedCrashHistory {
  /// A store's widgets, in id order, and its revision counter.
  struct State: Equatable, CustomStringConvertible {
    let widgets: [Widget]
    let lastRevision: UInt64

    init(widgets: [Widget], lastRevision: UInt64) {
      self.widgets = widgets.sorted { $0.id < $1.id }
      self.lastRevision = lastRevision
    }

    init(_ store: InMemoryWidgetStore) {
      let (widgets, lastRevision) = store.snapshot()
      self.init(widgets: widgets, lastRevision: lastRevision)
    }

    var description: String {
      "[\(widgets.map { "\($0.id)@\($0.revision)" }.joined(separator: ", "))] at \(lastRevision)"
    }
  }

  /// Oldest first; the first is in the file for certain.
  private(set) var states: [State]

  /// From a state the file holds for certain: just opened or recovered.
  init(durable store: InMemoryWidgetStore) {
    states = [State(store)]
  }

  /// After each write, with the store it was applied to. Every change takes
  /// a revision, so a write that left the counter alone changed nothing.
  mutating func noteWrite(_ store: InMemoryWidgetStore) {
    let state = State(store)
    if state.lastRevision != states.last?.lastRevision { states.append(state) }
  }

  /// The newest state the recovered store matches: its widgets, with the
  /// counter moved to `clock` as after any unclean stop; nil when it holds
  /// none of them, which is a lost, torn or reordered write.
  func stateHeld(by recovered: InMemoryWidgetStore, clock: UInt64) throws(FuzzFinding) -> State {
    let held = State(recovered)
    let match = states.last {
      $0.widgets == held.widgets && max($0.lastRevision, clock) == held.lastRevision
    }
    guard let match else {
      let recent = states.suffix(4).map(\.description).joined(separator: "; ")
      throw FuzzFinding(
        "the file holds \(held), which is no state the \(states.count - 1) writes since it "
          + "was last known durable passed through (the last ones: \(recent))")
    }
    return match
  }
}
