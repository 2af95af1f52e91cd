/// A connection's open streams by id, on either side: the server's and the
/// client's. Every callback from nghttp2 and every send of a call finds its
/// stream here, several times per message; a `Dictionary` hashes the id
/// with SipHash each time. Request stream ids are odd and rising, so
/// `id >> 1` spreads them over consecutive slots, and linear probing
/// settles the rare wrap-around.
///
/// Public and inlinable so that the client's module gets it specialized for
/// its own stream type: as `package`, it was not, and every lookup went
/// through generic metadata (more than the SipHash it replaced).
///
/// Until a second stream is open at once, the one stream sits in the table
/// itself and the arrays stay unallocated: most connections of a large
/// fleet make a call now and then, one at a time.
public struct StreamTable<Stream: AnyObject> {
  /// Parallel arrays, a power of two long; id 0 (never a request stream)
  /// marks an empty slot.
  @usableFromInline var ids: [Int32]
  @usableFromInline var streams: [Stream?]
  /// The only stream, while `ids` is empty (id 0: none).
  @usableFromInline var soleID: Int32 = 0
  @usableFromInline var sole: Stream?
  @usableFromInline var storedCount = 0
  public var count: Int { storedCount }
  /// Entries not in their home slot. Usually none: removing a stream then
  /// needs no backward shift, which would otherwise walk the whole run of
  /// younger streams after it (a hundred with h2load's 100 in flight).
  @usableFromInline var storedDisplaced = 0
  public var displaced: Int { storedDisplaced }
  /// `displaced` counted afresh, for tests.
  public func countDisplaced() -> Int {
    ids.indices.count { ids[$0] != 0 && home(of: ids[$0]) != $0 }
  }

  @inlinable public init() {
    ids = []
    streams = []
  }

  @inlinable public var isEmpty: Bool { count == 0 }

  /// The streams, in no particular order.
  @inlinable public var values: [Stream] {
    if ids.isEmpty { return sole.map { [$0] } ?? [] }
    return streams.compactMap { $0 }
  }

  /// Whether `id` is open, without taking a reference to its stream.
  @inlinable public func contains(_ id: Int32) -> Bool {
    if ids.isEmpty { return id == soleID && id != 0 }
    return find(id) != nil
  }

  /// The stream of `id`, not retained: for a caller that only uses it
  /// while the table still holds it (`_withUnsafeGuaranteedRef`), where
  /// the subscript's reference cost a retain and a release.
  @inlinable public func unretained(_ id: Int32) -> Unmanaged<Stream>? {
    if ids.isEmpty {
      guard id == soleID, id != 0, let sole else { return nil }
      return .passUnretained(sole)
    }
    guard let slot = find(id) else { return nil }
    return streams.withUnsafeBufferPointer { $0[slot].map { .passUnretained($0) } }
  }

  @inlinable public subscript(id: Int32) -> Stream? {
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
          if soleID == 0 { storedCount += 1 }
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
      storedCount += 1
      if slot != home { storedDisplaced += 1 }
    }
  }

  @inlinable @discardableResult
  public mutating func removeValue(forKey id: Int32) -> Stream? {
    if ids.isEmpty {
      guard id == soleID, id != 0 else { return nil }
      let removed = sole
      soleID = 0
      sole = nil
      storedCount = 0
      return removed
    }
    guard var hole = find(id) else { return nil }
    let removed = streams[hole]
    if home(of: id) != hole { storedDisplaced -= 1 }
    ids[hole] = 0
    streams[hole] = nil
    storedCount -= 1
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
        if distanceToHole == 0 { storedDisplaced -= 1 }
        hole = next
      }
      next = (next + 1) & mask
    }
    return removed
  }

  @inlinable public mutating func removeAll() {
    self = StreamTable()
  }

  @inlinable var mask: Int { ids.count - 1 }

  @inlinable func home(of id: Int32) -> Int {
    Int(UInt32(bitPattern: id) >> 1) & mask
  }

  @inlinable func find(_ id: Int32) -> Int? {
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
  @inlinable mutating func spill() {
    let (id, stream) = (soleID, sole)
    soleID = 0
    sole = nil
    storedCount = 0
    grow()
    self[id] = stream
  }

  @inlinable mutating func grow() {
    let old = (ids, streams)
    let capacity = max(8, ids.count * 2)
    ids = Array(repeating: 0, count: capacity)
    streams = Array(repeating: nil, count: capacity)
    storedCount = 0
    storedDisplaced = 0
    for (id, stream) in zip(old.0, old.1) where id != 0 { self[id] = stream }
  }
}
