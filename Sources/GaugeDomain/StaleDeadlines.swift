/// When widgets with `staleAfterMs` go stale: a binary min-heap of
/// (due time, id), so the earliest deadline is found without looking at
/// any widget, and widgets without the field never enter it.
///
/// Deadlines are lazy: a write moves a widget's deadline later without
/// touching the heap, and the entry, once due, is checked against the
/// widget and put back at its real deadline. A producer writing a
/// watched widget many times a second thus costs the heap nothing; an
/// entry is added only when a widget starts being watched, when its
/// deadline moves earlier, or when a write clears its staleness.
public struct StaleDeadlines: Sendable {
  public struct Entry: Sendable, Equatable {
    public var dueMs: Int64
    public var id: String
  }

  private var heap: [Entry] = []

  public init() {}

  public var count: Int { heap.count }

  /// The earliest due time, nil when nothing is watched.
  public var earliestDueMs: Int64? { heap.first?.dueMs }

  public mutating func insert(id: String, dueMs: Int64) {
    heap.append(Entry(dueMs: dueMs, id: id))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].dueMs < heap[parent].dueMs else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the earliest entry when it is due at `nowMs`.
  public mutating func popDue(atOrBefore nowMs: Int64) -> Entry? {
    guard let first = heap.first, first.dueMs <= nowMs else { return nil }
    let last = heap.removeLast()
    guard !heap.isEmpty else { return first }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].dueMs < heap[smallest].dueMs { smallest = left }
      if right < heap.count, heap[right].dueMs < heap[smallest].dueMs { smallest = right }
      guard smallest != parent else { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
    return first
  }

  /// Replaces every entry: for dropping the entries of removed widgets
  /// once they outnumber the live ones.
  public mutating func rebuild(from entries: [Entry]) {
    heap = []
    heap.reserveCapacity(entries.count)
    for entry in entries { insert(id: entry.id, dueMs: entry.dueMs) }
  }
}
