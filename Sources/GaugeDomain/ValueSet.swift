/// One value for `WidgetStore.setValues`: a PublishValues item.
public struct ValueSet: Sendable, Equatable {
  public var id: String
  public var value: Double

  public init(id: String, value: Double) {
    self.id = id
    self.value = value
  }
}

/// Why the value at `offset` of a `setValues` batch was not applied.
public struct ValueSetRejection: Sendable, Equatable {
  public var offset: Int
  public var error: WidgetError

  public init(offset: Int, error: WidgetError) {
    self.offset = offset
    self.error = error
  }
}

extension WidgetStore {
  /// Sets the values `refusal` lets through as one batch and rejects the
  /// others in place: every rejection at its offset in `updates`, in order.
  /// For stores that guard another (a reserved prefix, a token's reach).
  public func setValues(
    _ updates: [ValueSet], refusing refusal: (ValueSet) -> WidgetError?
  ) -> [ValueSetRejection] {
    // Nothing refused (the common case): the batch goes as it came.
    guard let first = updates.firstIndex(where: { refusal($0) != nil }) else {
      return setValues(updates)
    }
    var refused: [ValueSetRejection] = []
    var passed = Array(updates[..<first])
    var offsets = Array(0..<first)
    for offset in first..<updates.count {
      if let error = refusal(updates[offset]) {
        refused.append(ValueSetRejection(offset: offset, error: error))
      } else {
        passed.append(updates[offset])
        offsets.append(offset)
      }
    }
    let rejected = passed.isEmpty ? [] : setValues(passed)
    let mapped = rejected.map { ValueSetRejection(offset: offsets[$0.offset], error: $0.error) }
    return (refused + mapped).sorted { $0.offset < $1.offset }
  }
}
