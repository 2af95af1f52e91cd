import GaugeDomain
import GaugeJSON

/// The body of `POST /values`, line by line: NDJSON objects
/// `{"id": "cpu", "value": 57}`, or `ID VALUE` in plain text (what
/// `gaugectl publish` reads). Blank lines are skipped; in plain text so are
/// `#` comments.
package enum RESTValueLines {
  package enum Format {
    case ndjson
    case plainText
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
    for (offset, rawLine) in lines.enumerated() {
      let bytes = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
      let line = Substring(String(decoding: bytes, as: UTF8.self))
      let text = line.drop { $0 == " " || $0 == "\t" }
      if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      if format == .plainText, text.hasPrefix("#") { continue }
      let result =
        switch format {
        case .ndjson: json(String(text), line: offset + 1)
        case .plainText: plain(text, line: offset + 1)
        }
      switch result {
      case .success(let update): items.append(Item(line: offset + 1, update: update))
      case .failure(let problem): unreadable.append(problem)
      }
    }
    return (items, unreadable)
  }

  private static func plain(_ text: Substring, line: Int) -> Result<ValueSet, Unreadable> {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard fields.count == 2 else {
      return .failure(
        Unreadable(
          line: line, id: fields.first.map(String.init),
          detail: "expected \"ID VALUE\", got \(fields.count) fields"))
    }
    guard let value = Double(fields[1]) else {
      return .failure(
        Unreadable(
          line: line, id: String(fields[0]),
          detail: "\(JSONWriter.quoted(String(fields[1]))) is not a number"))
    }
    return .success(ValueSet(id: String(fields[0]), value: value))
  }

  private static func json(_ text: String, line: Int) -> Result<ValueSet, Unreadable> {
    let object: JSONValue
    do {
      object = try JSONParser.parse(text)
    } catch {
      return .failure(
        Unreadable(line: line, detail: "not JSON: \(error.reason) at column \(error.column)"))
    }
    guard case .object(let members) = object else {
      return .failure(Unreadable(line: line, detail: "must be a JSON object, got \(object.kind)"))
    }
    let id: String? = if case .string(let id)? = object["id"] { id } else { nil }
    if let unknown = members.first(where: { $0.key != "id" && $0.key != "value" }) {
      return .failure(
        Unreadable(line: line, id: id, detail: "\(unknown.key): is not a field of a value line"))
    }
    guard let id else {
      let got = object["id"].map { "got \($0.kind)" } ?? "it is missing"
      return .failure(Unreadable(line: line, detail: "id: must be a string, \(got)"))
    }
    guard case .number(let value)? = object["value"] else {
      let got = object["value"].map { "got \($0.kind)" } ?? "it is missing"
      return .failure(Unreadable(line: line, id: id, detail: "value: must be a number, \(got)"))
    }
    return .success(ValueSet(id: id, value: value))
  }
}

extension RESTValueLines.Unreadable: Error {
  package init(line: Int, detail: String) {
    self.init(line: line, id: nil, detail: detail)
  }
}
