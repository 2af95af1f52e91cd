import GaugeDomain
import Testing

@testable import GaugeFuzz

/// The relaxed-crash oracle must accept any prefix of the writes and refuse
/// everything else a crash could wrongly leave: a torn batch, a later write
/// without an earlier one, a counter that went back.
@Suite struct RelaxedCrashHistoryTests {
  static let clock: UInt64 = 1_000_000

  /// Puts "a" and "b" (revisions 1 and 2), then sets both in one batch
  /// (3, 4), then "a" and an unknown id in one batch (5, the other
  /// refused), then only the unknown id (refused), then "a" again (6).
  private static func history() throws -> (RelaxedCrashHistory, [StoreState]) {
    let store = InMemoryWidgetStore(clock: { 1 })
    for id in ["a", "b"] {
      _ = try store.put(
        WidgetPut(
          id: id,
          content: ContentPatch(template: .value(PlainValuePatch(value: 0)))))
    }
    var history = RelaxedCrashHistory(durable: store)
    _ = store.setValues([ValueSet(id: "a", value: 1), ValueSet(id: "b", value: 1)])
    history.noteWrite(store)
    _ = store.setValues([ValueSet(id: "a", value: 3), ValueSet(id: "nope", value: 1)])
    history.noteWrite(store)
    _ = try? store.setValue(1, id: "nope")
    history.noteWrite(store)
    _ = try store.setValue(2, id: "a")
    history.noteWrite(store)
    return (history, history.states)
  }

  /// A store recovered from a file holding `widgets` and `lastRevision`, its
  /// counter moved to the clock as after an unclean stop.
  private static func recovered(_ widgets: [Widget], lastRevision: UInt64) -> InMemoryWidgetStore {
    let restart = max(lastRevision, clock)
    return InMemoryWidgetStore(
      table: WidgetTable(widgets: widgets, lastRevision: restart, horizon: restart))
  }

  @Test func keepsOneStatePerChangeOnly() throws {
    let (_, states) = try Self.history()
    // The half-refused batch changed "a"; the wholly refused write changed
    // nothing and took no revision.
    #expect(states.map(\.lastRevision) == [2, 4, 5, 6])
  }

  @Test func acceptsEveryPrefix() throws {
    let (history, states) = try Self.history()
    for state in states {
      let held = try history.stateHeld(
        by: Self.recovered(state.widgets, lastRevision: state.lastRevision), clock: Self.clock)
      #expect(held == state)
    }
  }

  @Test func refusesTornBatch() throws {
    let (history, states) = try Self.history()
    // "a" from the batch that set both, "b" from before it.
    let torn = [states[1].widgets[0], states[0].widgets[1]]
    #expect(throws: FuzzFinding.self) {
      try history.stateHeld(by: Self.recovered(torn, lastRevision: 4), clock: Self.clock)
    }
  }

  @Test func refusesLaterWriteWithoutEarlierOne() throws {
    let (history, states) = try Self.history()
    // The last write to "a" kept, the batch before it lost for "b".
    let reordered = [states[3].widgets[0], states[0].widgets[1]]
    #expect(throws: FuzzFinding.self) {
      try history.stateHeld(by: Self.recovered(reordered, lastRevision: 6), clock: Self.clock)
    }
  }

  @Test func refusesCounterBehindItsWidgets() throws {
    let (history, states) = try Self.history()
    let past = max(states[2].lastRevision, Self.clock) - 1
    let store = InMemoryWidgetStore(
      table: WidgetTable(widgets: states[2].widgets, lastRevision: past, horizon: past))
    #expect(throws: FuzzFinding.self) {
      try history.stateHeld(by: store, clock: Self.clock)
    }
  }
}
