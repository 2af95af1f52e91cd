import Glibc

/// One dispatched event, borrowed from the scanner for the length of the
/// callback it is passed to.
struct ServerSentEvent {
  /// The last `event:` field's value; empty when there was none
  /// (an `EventSource` calls that `message`).
  let name: UnsafeRawBufferPointer
  /// The `data:` fields' values joined by LF.
  let data: UnsafeRawBufferPointer

  func isNamed(_ expected: StaticString) -> Bool {
    name.elementsEqual(
      UnsafeRawBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount))
  }
}

/// Server-Sent Events (the WHATWG HTML standard's event stream format) read
/// from a body that arrives in pieces split anywhere: `event:` names the
/// event, `data:` lines are joined, a blank line dispatches it, and lines
/// starting with a colon are comments. `id:` and `retry:` matter only to a
/// client that reconnects, which these do not, so they are skipped. Lines
/// end in LF or CRLF; a lone CR, which the format also allows and gauged
/// never sends, is not taken as a line end.
struct ServerSentEventScanner {
  /// The start of a line that the previous piece cut off.
  private var partialLine: [UInt8] = []
  private var name: [UInt8] = []
  private var data: [UInt8] = []
  private var hasData = false

  mutating func scan(_ bytes: UnsafeRawBufferPointer, onEvent: (ServerSentEvent) -> Void) {
    guard let base = bytes.baseAddress else { return }
    var lineStart = 0
    while lineStart < bytes.count,
      let found = memchr(base + lineStart, 10, bytes.count - lineStart)
    {
      let lineEnd = base.distance(to: UnsafeRawPointer(found))
      let piece = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
      if partialLine.isEmpty {
        handle(line: piece, onEvent: onEvent)
      } else {
        partialLine.append(contentsOf: piece)
        var line = partialLine
        partialLine = []
        line.withUnsafeBytes { handle(line: $0, onEvent: onEvent) }
        line.removeAll(keepingCapacity: true)
        partialLine = line
      }
      lineStart = lineEnd + 1
    }
    partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))
  }

  private mutating func handle(
    line rawLine: UnsafeRawBufferPointer, onEvent: (ServerSentEvent) -> Void
  ) {
    var line = rawLine[...]
    if line.last == 13 { line = line.dropLast() }
    guard let first = line.first else { return dispatch(onEvent) }
    if first == UInt8(ascii: ":") { return }
    let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
    let field = line[..<colon]
    var value = line[colon...].dropFirst()
    if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
    if Self.matches(field, "data") {
      if hasData { data.append(10) }
      data.append(contentsOf: value)
      hasData = true
    } else if Self.matches(field, "event") {
      name.removeAll(keepingCapacity: true)
      name.append(contentsOf: value)
    }
  }

  /// A blank line: an event with data goes out; either way the next starts afresh.
  private mutating func dispatch(_ onEvent: (ServerSentEvent) -> Void) {
    if hasData {
      name.withUnsafeBytes { name in
        data.withUnsafeBytes { data in onEvent(ServerSentEvent(name: name, data: data)) }
      }
    }
    name.removeAll(keepingCapacity: true)
    data.removeAll(keepingCapacity: true)
    hasData = false
  }

  private static func matches(_ field: Slice<UnsafeRawBufferPointer>, _ name: StaticString) -> Bool
  {
    field.elementsEqual(
      UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }
}
