import GaugeDomain

extension [ValueChange] {
  /// Appends `change`, or replaces the last change when it is for the same
  /// widget (a producer publishing one widget fast), so such a run takes
  /// one entry. Safe because value changes are laid over everything else
  /// by revision, so the replaced one could only have been superseded.
  /// Returns whether the list grew.
  mutating func appendCoalescing(_ change: ValueChange) -> Bool {
    if let last = indices.last, self[last].id == change.id {
      self[last] = change
      return false
    }
    append(change)
    return true
  }
}

extension [String: ValueChange] {
  /// Keeps `change` unless the widget already has a later one: the latest
  /// value per widget, whatever order the changes come in.
  mutating func keepLatest(_ change: ValueChange) {
    if let index = index(forKey: change.id) {
      if values[index].revision < change.revision { values[index] = change }
    } else {
      self[change.id] = change
    }
  }
}
