import CNGHTTP2

/// A header block laid out the way nghttp2 reads it: the `nghttp2_nv`
/// entries and, after them, the names and values they point to, in one
/// allocation. The blocks nearly every call sends (a gRPC response's
/// headers, the OK status) are packed once and reused: laying out their
/// Strings again for every call cost about 3% of a unary call.
///
/// `@unchecked Sendable`: the memory is written only by `init` and read
/// (by nghttp2) afterwards, so shared packed blocks can live in
/// `static let`s that any loop reads.
package final class PackedHeaders: @unchecked Sendable {
  package let fields: [HeaderField]
  private let storage: UnsafeMutableRawPointer
  private let entries: UnsafeMutablePointer<nghttp2_nv>

  /// `permanent`: the block lives as long as the process (a `static let`),
  /// so nghttp2 may read its names and values where they are instead of
  /// copying them on every submit; it reads them when the frame is sent.
  package init(_ fields: [HeaderField], permanent: Bool = false) {
    self.fields = fields
    let entryBytes = MemoryLayout<nghttp2_nv>.stride * fields.count
    storage = .allocate(
      byteCount: max(1, entryBytes + Self.textBytes(of: fields)),
      alignment: MemoryLayout<nghttp2_nv>.alignment)
    entries = storage.bindMemory(to: nghttp2_nv.self, capacity: fields.count)
    Self.lay(
      fields, entries: entries, text: (storage + entryBytes).assumingMemoryBound(to: UInt8.self),
      flags: permanent
        ? UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)
        : UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
  }

  /// The bytes `lay` needs for the names and values of `fields`.
  static func textBytes(of fields: [HeaderField]) -> Int {
    fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
  }

  /// Lays `fields` out the way nghttp2 reads them: one entry each in
  /// `entries`, pointing into `text`, which holds `textBytes(of: fields)`.
  /// Also used for blocks sent once, in temporary memory
  /// (`NGHTTP2Session.withNameValues`).
  static func lay(
    _ fields: [HeaderField], entries: UnsafeMutablePointer<nghttp2_nv>,
    text start: UnsafeMutablePointer<UInt8>, flags: UInt8 = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
  ) {
    var text = start
    for (index, field) in fields.enumerated() {
      let name = text
      text = copy(field.name, to: text)
      let value = text
      text = copy(field.value, to: text)
      (entries + index).initialize(
        to: nghttp2_nv(
          name: name, value: value, namelen: value - name, valuelen: text - value, flags: flags))
    }
  }

  deinit {
    storage.deallocate()
  }

  /// The entries, valid for the duration of `body`.
  func withNameValues<Result>(_ body: (UnsafeMutablePointer<nghttp2_nv>, Int) -> Result) -> Result {
    withExtendedLifetime(self) { body(entries, fields.count) }
  }

  /// Copies `text`'s UTF-8 to `destination`; returns the byte after it.
  private static func copy(_ text: String, to destination: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    var text = text
    return text.withUTF8 { utf8 in
      guard let source = utf8.baseAddress else { return destination }
      destination.initialize(from: source, count: utf8.count)
      return destination + utf8.count
    }
  }
}
