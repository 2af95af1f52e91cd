/// The rule for widget ids: `^[a-zA-Z0-9][a-zA-Z0-9_-]{0,127}$`.
/// ASCII only, so byte order, scalar order and `String` order agree.
public enum WidgetID {
  public static let maxLength = 128

  public static func isValid(_ id: String) -> Bool {
    let bytes = id.utf8
    guard let first = bytes.first, bytes.count <= maxLength, isAlphanumeric(first) else {
      return false
    }
    return bytes.allSatisfy {
      isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
    }
  }

  /// Why `id` is not acceptable, or nil when it is.
  public static func violation(of id: String?, at field: String = "id") -> FieldViolation? {
    var violations = Violations()
    _ = violations.requireID(id, at: field)
    return violations.all.first
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      false
    }
  }
}

extension Violations {
  /// The id when it is valid, or nil after recording why not.
  mutating func requireID(_ id: String?, at field: String = "id") -> String? {
    guard let id, !id.isEmpty else {
      add(field, "is required")
      return nil
    }
    guard WidgetID.isValid(id) else {
      let length = id.unicodeScalars.count
      if length > WidgetID.maxLength {
        add(field, "must be at most \(WidgetID.maxLength) characters, got \(length)")
      } else {
        add(
          field,
          "must start with a letter or digit and contain only letters, digits, \"_\" and \"-\""
        )
      }
      return nil
    }
    return id
  }
}
