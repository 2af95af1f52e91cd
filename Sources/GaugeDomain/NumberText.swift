extension Double {
  /// The number as a person would write it in an error message: `7`, not
  /// `7.0`; `2.5`; and the proto JSON spellings for the non-finite values.
  var humanText: String {
    if isNaN { return "NaN" }
    if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
    // Beyond 2^53 every double is integral, and digits past the precision
    // would look more exact than the value is, so the shortest repr wins.
    if self == rounded(), abs(self) < 0x1p53 { return String(Int64(self)) }
    return description
  }
}
