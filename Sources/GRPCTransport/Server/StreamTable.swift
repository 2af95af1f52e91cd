/// A connection's open streams by id. Every callback from nghttp2 and every
/// send of a call finds its stream here, several times per message; a
/// `Dictionary` hashes the id with SipHash each time. Request stream ids are
/// odd and rising, so `id >> 1` spreads them over consecutive slots, and
/// linear probing settles the rare wrap-around.
///
/// Until a second stream is open at once, the one stream sits in the table
/// itself and the arrays stay unallocated: most connections of a large
/// fleet make a call now and then, one at a time.
struct StreamTable {
  /// Parallel arrays, a power of two long; id 0 (never a request stream)
  /// marks an empty slot.
  private var ids: [Int32]
  private var streams: [ServerStream?]
  /// The only stream, while `ids` is empty (id 0: none).
  private var soleID: Int32 = 0
  private var sole: ServerStream?
  private(set) var count = 0
  /// Entries not in their home slot. Usually none: removing a stream then
  /// needs no backward shift, which would otherwise walk the whole run of
  /// younger streams after it (a hundred with h2load's 100 in flight).
  private(set) var displaced = 0
  /// `displaced` counted afresh, for tests.
  func countDisplaced() -> Int {
    ids.indices.count { ids[$0] != 0 && home(of: ids[$0]) != $0 }
  }

  init() {
    ids = []
    streams = []
  }

  var isEmpty: Bool { count == 0 }

  /// The streams, in no particular order.
  var values: [ServerStream] {
    if ids.isEmpty { return sole.map { [$0] } ?? [] }
    return streams.compactMap { $0 }
  }

  subscript(id: Int32) -> ServerStream? {
    get {
      if ids.isEmpty { return id == soleID && id != 0 ? sole : nil }
      guard let slot = find(id) else { return nil }
      return streams[slot]
    }
    set {
      guard let stream = newValue else {
        removeValue(forKey: id)
        return
      }
      if ids.isEmpty {
        if soleID == 0 || soleID == id {
          if soleID == 0 { count += 1 }
          soleID = id
          sole = stream
          return
        }
        spill()
      }
      if let slot = find(id) {
        streams[slot] = stream
        return
      }
      if (count + 1) * 2 > ids.count { grow() }
      let home = home(of: id)
      var slot = home
      while ids[slot] != 0 { slot = (slot + 1) & mask }
      ids[slot] = id
      streams[slot] = stream
      count += 1
      if slot != home { displaced += 1 }
    }
  }

  @discardableResult
  mutating func removeValue(forKey id: Int32) -> ServerStream? {
    if ids.isEmpty {
      guard id == soleID, id != 0 else { return nil }
      let removed = sole
      soleID = 0
      sole = nil
      count = 0
      return removed
    }
    guard var hole = find(id) else { return nil }
    let removed = streams[hole]
    if home(of: id) != hole { displaced -= 1 }
    ids[hole] = 0
    streams[hole] = nil
    count -= 1
    // Only a displaced entry can need to move up.
    guard displaced > 0 else { return removed }
    // Backward shift: later entries of the run move up when the hole lies
    // between their home and where they sit, so lookups never stop early.
    var next = (hole + 1) & mask
    while ids[next] != 0 {
      let home = home(of: ids[next])
      let distanceToNext = (next - home) & mask
      let distanceToHole = (hole - home) & mask
      if distanceToHole < distanceToNext {
        ids[hole] = ids[next]
        streams[hole] = streams[next]
        ids[next] = 0
        streams[next] = nil
        if distanceToHole == 0 { displaced -= 1 }
        hole = next
      }
      next = (next + 1) & mask
    }
    return removed
  }

  mutating func removeAll() {
    self = StreamTable()
  }

  private var mask: Int { ids.count - 1 }

  private func home(of id: Int32) -> Int {
    Int(UInt32(bitPattern: id) >> 1) & mask
  }

  private func find(_ id: Int32) -> Int? {
    guard count > 0, id != 0 else { return nil }
    var slot = home(of: id)
    while true {
      let found = ids[slot]
      if found == id { return slot }
      if found == 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  /// A second stream opened: the sole one moves into the arrays.
  private mutating func spill() {
    let (id, stream) = (soleID, sole)
    soleID = 0
    sole = nil
    count = 0
    grow()
    self[id] = stream
  }

  private mutating func grow() {
    let old = (ids, streams)
    let capacity = max(8, ids.count * 2)
    ids = Array(repeating: 0, count: capacity)
    streams = Array(repeating: nil, count: capacity)
    count = 0
    displaced = 0
    for (id, stream) in zip(old.0, old.1) where id != 0 { self[id] = stream }
  }
}
