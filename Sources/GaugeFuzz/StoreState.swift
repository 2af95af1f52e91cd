import GaugeDomain

/// A store's widgets, in id order, and its revision counter: what the
/// store harness compares between the SQLite store and memory.
struct StoreState: Equatable, CustomStringConvertible {
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

  /// Each widget's id and revision.
  var revisions: [String] { widgets.map { "\($0.id)@\($0.revision)" } }

  var description: String {
    "[\(revisions.joined(separator: ", "))] at \(lastRevision)"
  }
}
