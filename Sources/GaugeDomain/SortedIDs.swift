/// Widget ids in UTF-8 byte order, the order ListWidgets pages through.
/// Lookups are binary searches; an insert or removal shifts the array tail,
/// a memmove of pointers that stays cheap at tens of thousands of ids, while
/// a value update (the common case) does not touch the array at all.
struct SortedIDs: Sendable {
  private(set) var ids: [String] = []

  init<IDs: Sequence<String>>(_ unsorted: IDs) {
    ids = unsorted.sorted(by: Self.precedes)
  }

  var count: Int { ids.count }

  subscript(index: Int) -> String { ids[index] }

  mutating func insert(_ id: String) {
    let index = firstIndex(notBefore: id)
    if index < ids.count, ids[index] == id { return }
    ids.insert(id, at: index)
  }

  mutating func remove(_ id: String) {
    let index = firstIndex(notBefore: id)
    if index < ids.count, ids[index] == id { ids.remove(at: index) }
  }

  /// The index of the first id that is not ordered before `key`.
  func firstIndex(notBefore key: String) -> Int {
    partition { !Self.precedes($0, key) }
  }

  /// The index of the first id ordered after `key`.
  func firstIndex(after key: String) -> Int {
    partition { Self.precedes(key, $0) }
  }

  /// The first index whose id satisfies `isAtOrPast`, which must be false
  /// then true along the array.
  private func partition(_ isAtOrPast: (String) -> Bool) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let middle = low + (high - low) / 2
      if isAtOrPast(ids[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Byte order rather than `String`'s `<`, which compares canonically
  /// equivalent forms and so is not a plain byte order for arbitrary text.
  static func precedes(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
  }
}
