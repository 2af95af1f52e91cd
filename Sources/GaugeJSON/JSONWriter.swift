/// Writes JSON: compact on one line (for JSON lines), or indented by two
/// spaces for people. Numbers that are whole print without a fraction.
public enum JSONWriter {
  public static func compact(_ value: JSONValue) -> String {
    var out = ""
    write(value, into: &out, indent: nil, level: 0)
    return out
  }

  public static func pretty(_ value: JSONValue) -> String {
    var out = ""
    write(value, into: &out, indent: "  ", level: 0)
    return out
  }

  private static func write(_ value: JSONValue, into out: inout String, indent: String?, level: Int)
  {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .number(let number): out += format(number)
    case .string(let text): writeString(text, into: &out)
    case .array(let elements):
      out += "["
      for (index, element) in elements.enumerated() {
        separate(index, into: &out, indent: indent, level: level)
        write(element, into: &out, indent: indent, level: level + 1)
      }
      close("]", empty: elements.isEmpty, into: &out, indent: indent, level: level)
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        separate(index, into: &out, indent: indent, level: level)
        writeString(member.key, into: &out)
        out += indent == nil ? ":" : ": "
        write(member.value, into: &out, indent: indent, level: level + 1)
      }
      close("}", empty: members.isEmpty, into: &out, indent: indent, level: level)
    }
  }

  private static func separate(_ index: Int, into out: inout String, indent: String?, level: Int) {
    if index > 0 { out += "," }
    if let indent { out += "\n" + String(repeating: indent, count: level + 1) }
  }

  private static func close(
    _ bracket: String, empty: Bool, into out: inout String, indent: String?, level: Int
  ) {
    if let indent, !empty { out += "\n" + String(repeating: indent, count: level) }
    out += bracket
  }

  /// Shortest text that reads back as the same double; whole numbers up to
  /// 2^53 without ".0". JSON has no NaN or infinity: they become null.
  public static func format(_ number: Double) -> String {
    guard number.isFinite else { return "null" }
    // Int64 has no negative zero; written "0", it would come back as +0.
    if number == 0, number.sign == .minus { return "-0" }
    if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
      return String(Int64(number))
    }
    return number.description
  }

  /// True when `text` is written as it is between the quotes.
  static func needsNoEscape(_ text: String) -> Bool {
    !text.utf8.contains(where: needsEscape)
  }

  /// A byte that may start something `writeString` escapes: a control
  /// character, a quote, a backslash, or the lead byte of a C1 character.
  static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
      || byte == 0xC2
  }

  /// `text` as a JSON string literal, quotes included: the one escaper
  /// every JSON the project writes goes through.
  public static func quoted(_ text: String) -> String {
    var out = ""
    writeString(text, into: &out)
    return out
  }

  private static func writeString(_ text: String, into out: inout String) {
    out += "\""
    // Most strings (ids, names, field names) need no escape: copied whole.
    if needsNoEscape(text) {
      out += text
      out += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        // C1 too: raw, `Console` would show it as `\x9B`, which is not JSON.
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
