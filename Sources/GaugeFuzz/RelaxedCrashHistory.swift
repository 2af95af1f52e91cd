import GaugeDomain

/// What a relaxed-mode store may hold after a crash: the state after some
/// prefix of the writes since it last closed or crashed. Relaxed mode
/// acknowledges before the commit, so a crash may lose the newest writes;
/// but the writer commits whole changes, oldest first, one batch per
/// transaction, so the file never holds part of a write, nor a write
/// without every write before it.
struct RelaxedCrashHistory {
  /// Oldest first; the first is in the file for certain.
  private(set) var states: [StoreState]

  /// From a state the file holds for certain: just opened or recovered.
  init(durable store: InMemoryWidgetStore) {
    states = [StoreState(store)]
  }

  /// After each write, with the store it was applied to. Every change takes
  /// a revision, so a write that left the counter alone changed nothing.
  mutating func noteWrite(_ store: InMemoryWidgetStore) {
    let state = StoreState(store)
    if state.lastRevision != states.last?.lastRevision { states.append(state) }
  }

  /// The newest state the recovered store matches: its widgets, with the
  /// counter moved to `clock` as after any unclean stop. Holding none of
  /// them is a lost, torn or reordered write: a finding.
  func stateHeld(by recovered: InMemoryWidgetStore, clock: UInt64) throws(FuzzFinding) -> StoreState
  {
    let held = StoreState(recovered)
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
