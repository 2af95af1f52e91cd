extension Violations {
  /// A present, finite number, or nil after recording why not.
  mutating func requireFinite(_ number: Double?, at field: @autoclosure () -> String) -> Double? {
    guard let number else {
      add(field(), "is required")
      return nil
    }
    return finite(number, at: field())
  }

  /// A finite number when one is present; nil when absent or after recording
  /// why it is not acceptable.
  mutating func optionalFinite(_ number: Double?, at field: @autoclosure () -> String) -> Double? {
    guard let number else { return nil }
    return finite(number, at: field())
  }

  private mutating func finite(_ number: Double, at field: @autoclosure () -> String) -> Double? {
    guard number.isFinite else {
      add(field(), "must be finite, got \(number.humanText)")
      return nil
    }
    return number
  }

  /// Bounds are strict so a gauge always has a range to draw.
  mutating func requireLess(
    _ minValue: Double?, than maxValue: Double?, at field: @autoclosure () -> String,
    maxName: String
  ) {
    guard let minValue, let maxValue, minValue >= maxValue else { return }
    add(field(), "must be less than \(maxName) (\(minValue.humanText) ≥ \(maxValue.humanText))")
  }

  mutating func requireWithin(
    _ number: Double?, _ bounds: ClosedRange<Double>?, at field: @autoclosure () -> String
  ) {
    guard let number, let bounds, !bounds.contains(number) else { return }
    let range = "[\(bounds.lowerBound.humanText), \(bounds.upperBound.humanText)]"
    add(field(), "\(number.humanText) is outside \(range)")
  }
}

/// The closed range `[minValue, maxValue]` when both ends are present,
/// finite and ordered; nil otherwise (their own checks say why).
func strictBounds(_ minValue: Double?, _ maxValue: Double?) -> ClosedRange<Double>? {
  guard let minValue, let maxValue, minValue.isFinite, maxValue.isFinite, minValue < maxValue
  else { return nil }
  return minValue...maxValue
}
