import GaugeDomain

/// The `value_log` row format: one commit's value-only changes packed into
/// one blob, so a commit writes one row for them however many widgets they
/// touch. Each change is the id's UTF-8 length (UInt16), the id, then the
/// value's bit pattern, the revision and the update time (64 bits each),
/// all little-endian. Compaction later folds the log into `widgets`.
enum ValueLog {
  static func encode(_ changes: [ValueChange]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(changes.count * 40)
    for change in changes {
      var id = change.id
      id.withUTF8 { utf8 in
        append(UInt64(utf8.count), byteCount: 2, to: &bytes)
        bytes.append(contentsOf: utf8)
      }
      append(change.value.bitPattern, byteCount: 8, to: &bytes)
      append(change.revision, byteCount: 8, to: &bytes)
      append(UInt64(bitPattern: change.updatedAtMs), byteCount: 8, to: &bytes)
    }
    return bytes
  }

  struct Malformed: Error, CustomStringConvertible {
    var description: String { "a value_log row is cut short or its id is not UTF-8" }
  }

  static func decode(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> [ValueChange] {
    var changes: [ValueChange] = []
    var offset = 0
    func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
      guard count <= bytes.count - offset else { throw Malformed() }
      defer { offset += count }
      return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
    func integer(_ byteCount: Int) throws(Malformed) -> UInt64 {
      var value: UInt64 = 0
      for (shift, byte) in try take(byteCount).enumerated() {
        value |= UInt64(byte) << (8 * shift)
      }
      return value
    }
    while offset < bytes.count {
      let idLength = Int(try integer(2))
      guard let id = String(validating: try take(idLength), as: UTF8.self) else {
        throw Malformed()
      }
      let value = Double(bitPattern: try integer(8))
      let revision = try integer(8)
      let updatedAtMs = Int64(bitPattern: try integer(8))
      changes.append(
        ValueChange(id: id, value: value, revision: revision, updatedAtMs: updatedAtMs))
    }
    return changes
  }

  private static func append(_ value: UInt64, byteCount: Int, to bytes: inout [UInt8]) {
    for shift in 0..<byteCount { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
  }
}
