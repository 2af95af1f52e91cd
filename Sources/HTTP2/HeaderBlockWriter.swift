import CNGHTTP2

/// Lays a header block out for one submit call, in memory the session
/// lends for that call (nghttp2 copies what it is given while it queues
/// the frame): a block made per answer costs no allocation and no String
/// per field.
package struct HeaderBlockWriter {
  private let entries: UnsafeMutableBufferPointer<nghttp2_nv>
  private let text: UnsafeMutableBufferPointer<UInt8>
  private var textUsed = 0
  /// The fields laid out so far.
  package private(set) var count = 0

  init(entries: UnsafeMutableBufferPointer<nghttp2_nv>, text: UnsafeMutableBufferPointer<UInt8>) {
    self.entries = entries
    self.text = text
  }

  /// Adds a field; the block must have room (as the submit call promised).
  package mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    precondition(
      count < entries.count && textUsed + name.count + value.count <= text.count,
      "the header block is larger than its submit call said")
    let base = text.baseAddress!
    let nameStart = base + textUsed
    if let source = name.baseAddress { nameStart.initialize(from: source, count: name.count) }
    let valueStart = nameStart + name.count
    if let source = value.baseAddress { valueStart.initialize(from: source, count: value.count) }
    textUsed += name.count + value.count
    entries[count] = nghttp2_nv(
      name: nameStart, value: valueStart, namelen: name.count, valuelen: value.count,
      flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
    count += 1
  }

  /// Adds a field with a literal name.
  package mutating func add(_ name: StaticString, _ value: String) {
    var value = value
    value.withUTF8 { value in
      name.withUTF8Buffer { name in add(name: name, value: value) }
    }
  }
}

extension NGHTTP2Session {
  /// Submits response headers laid out by `lay`, which adds at most
  /// `maxFields` fields of at most `maxTextBytes` name and value bytes in
  /// all. `endsStream`: the response has no body (HEADERS with
  /// END_STREAM); otherwise the body follows through `attachData`.
  package func submitResponse(
    streamID: Int32, endsStream: Bool, maxFields: Int, maxTextBytes: Int,
    _ lay: (inout HeaderBlockWriter) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, maxTextBytes)) { text in
      withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: max(1, maxFields)) { entries in
        var writer = HeaderBlockWriter(entries: entries, text: text)
        lay(&writer)
        submitLaidOut(
          streamID: streamID, endsStream: endsStream, entries: entries.baseAddress!,
          count: writer.count)
      }
    }
  }
}
