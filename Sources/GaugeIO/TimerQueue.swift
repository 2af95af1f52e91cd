/// The pending timers of one event loop: a binary min-heap ordered by deadline, then by
/// scheduling order, so timers with equal deadlines fire first-come first-served.
///
/// Cancelling only forgets the work; its heap entry is skipped when it surfaces, and the heap
/// is compacted once such dead entries outnumber the live ones, so frequently re-armed timeouts
/// cannot grow it without bound.
struct TimerQueue {
  private struct Entry {
    var deadline: ContinuousClock.Instant
    var id: UInt64

    func firesBefore(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : id < other.id
    }
  }

  private var heap: [Entry] = []
  private var work: [UInt64: () -> Void] = [:]
  private var nextID: UInt64 = 0

  var isEmpty: Bool { work.isEmpty }

  mutating func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void)
    -> TimerHandle
  {
    let id = nextID
    nextID += 1
    work[id] = body
    push(Entry(deadline: deadline, id: id))
    return TimerHandle(id: id)
  }

  mutating func cancel(_ handle: TimerHandle) {
    guard work.removeValue(forKey: handle.id) != nil else { return }
    if heap.count > 64 && heap.count > 2 * work.count {
      heap.removeAll { work[$0.id] == nil }
      for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
        siftDown(from: index)
      }
    }
  }

  /// The earliest deadline of a timer that has not been cancelled.
  mutating func nextDeadline() -> ContinuousClock.Instant? {
    while let first = heap.first {
      if work[first.id] != nil { return first.deadline }
      _ = popFirst()
    }
    return nil
  }

  /// Appends, in firing order, the ids of the live timers due at `now`.
  mutating func popDue(at now: ContinuousClock.Instant, into due: inout [TimerHandle]) {
    while let first = heap.first, first.deadline <= now {
      _ = popFirst()
      if work[first.id] != nil { due.append(TimerHandle(id: first.id)) }
    }
  }

  /// Removes and returns a timer's work, unless it was cancelled in the meantime.
  mutating func take(_ handle: TimerHandle) -> (() -> Void)? {
    work.removeValue(forKey: handle.id)
  }

  private mutating func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].firesBefore(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popFirst() -> Entry {
    let first = heap[0]
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      siftDown(from: 0)
    }
    return first
  }

  private mutating func siftDown(from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].firesBefore(heap[smallest]) { smallest = left }
      if right < heap.count && heap[right].firesBefore(heap[smallest]) { smallest = right }
      if smallest == parent { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
