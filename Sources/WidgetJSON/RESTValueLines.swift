import GaugeDomain
import GaugeJSON

/// Values, one per line: NDJSON objects `{"id": "cpu", "value": 57}`, or
/// `ID VALUE` in plain text. The body of `POST /values` is read whole;
/// `gaugectl publish` reads line by line as the input arrives, either form
/// on any line. Blank lines are skipped; outside NDJSON so are `#` comments.
package enum RESTValueLines {
  package enum Format {
    case ndjson
    case plainText
    /// Decided line by line: one that starts with `{` is JSON, any other
    /// is `ID VALUE`.
    case eitherPerLine
  }

  /// What one line says.
  package enum Line: Equatable {
    /// Blank, or a comment.
    case skipped
    case value(ValueSet)
    /// Not a value line; `id` when the line named one.
    case unreadable(id: String?, detail: String)
  }

  /// A line that could be read, numbered from 1.
  package struct Item {
    package var line: Int
    package var update: ValueSet
  }

  /// A line that could not be read.
  package struct Unreadable {
    package var line: Int
    package var id: String?
    package var detail: String
  }

  package static func parse(_ body: String, format: Format) -> (
    items: [Item], unreadable: [Unreadable]
  ) {
    var items: [Item] = []
    var unreadable: [Unreadable] = []
    // Split on the byte: to Swift, CR LF is one Character, so splitting
    // the String on "\n" would never split CRLF lines.
    let lines = body.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (offset, bytes) in lines.enumerated() {
      switch read(Substring(bytes), format: format) {
      case .skipped: continue
      case .value(let update): items.append(Item(line: offset + 1, update: update))
      case .unreadable(let id, let detail):
        unreadable.append(Unreadable(line: offset + 1, id: id, detail: detail))
      }
    }
    return (items, unreadable)
  }

  /// One line, without its newline; a CR left by CRLF is a blank.
  ///
  /// Blanks are found byte by byte, never `Character` by `Character`: a
  /// line may be megabytes long, and a blank followed by a combining mark
  /// is one `Character` that would hide the blank.
  package static func read(_ line: Substring, format: Format) -> Line {
    let text = trimmingBlanks(line)
    if text.isEmpty { return .skipped }
    let isJSON =
      switch format {
      case .ndjson: true
      case .plainText: false
      case .eitherPerLine: text.utf8.first == UInt8(ascii: "{")
      }
    if isJSON { return json(text) }
    if text.utf8.first == UInt8(ascii: "#") { return .skipped }
    return plain(text, alsoJSON: format == .eitherPerLine)
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// Both ends fall on a scalar's first byte, since blanks are ASCII.
  private static func trimmingBlanks(_ line: Substring) -> Substring {
    guard let first = line.utf8.firstIndex(where: { !isBlank($0) }),
      let last = line.utf8.lastIndex(where: { !isBlank($0) })
    else { return line[line.endIndex...] }
    return line[first..<line.utf8.index(after: last)]
  }

  private static func plain(_ text: Substring, alsoJSON: Bool) -> Line {
    let fields = text.utf8.split(whereSeparator: isBlank).map { Substring($0) }
    guard fields.count == 2 else {
      let expected = alsoJSON ? "\"ID VALUE\" or a JSON object" : "\"ID VALUE\""
      let got = fields.count == 1 ? "1 field" : "\(fields.count) fields"
      return .unreadable(
        id: fields.first.map(String.init), detail: "expected \(expected), got \(got)")
    }
    guard let value = Double(fields[1]) else {
      return .unreadable(
        id: String(fields[0]), detail: "\(JSONWriter.quoted(String(fields[1]))) is not a number")
    }
    return .value(ValueSet(id: String(fields[0]), value: value))
  }

  private static func json(_ text: Substring) -> Line {
    let object: JSONValue
    do {
      object = try JSONParser.parse(String(text))
    } catch {
      return .unreadable(id: nil, detail: "not JSON: \(error.reason) at column \(error.column)")
    }
    guard case .object(let members) = object else {
      return .unreadable(id: nil, detail: "must be a JSON object, got \(object.kind)")
    }
    let id: String? = if case .string(let id)? = object["id"] { id } else { nil }
    if let unknown = members.first(where: { $0.key != "id" && $0.key != "value" }) {
      return .unreadable(id: id, detail: "\(unknown.key): is not a field of a value line")
    }
    guard let id else {
      let got = object["id"].map { "got \($0.kind)" } ?? "it is missing"
      return .unreadable(id: nil, detail: "id: must be a string, \(got)")
    }
    guard case .number(let value)? = object["value"] else {
      let got = object["value"].map { "got \($0.kind)" } ?? "it is missing"
      return .unreadable(id: id, detail: "value: must be a number, \(got)")
    }
    return .value(ValueSet(id: id, value: value))
  }
}
