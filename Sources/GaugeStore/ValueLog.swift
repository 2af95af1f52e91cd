import GaugeDomain

/// The `value_log` row format: one commit's value-only changes packed into
/// one blob, so a commit writes one row for them however many widgets they
/// touch. Each change is the id's UTF-8 length (UInt16), the id, then the
/// value's bit pattern, the revision and the update time (64 bits each),
/// all little-endian. Compaction later folds the log into `widgets`.
enum ValueLog {
  static func encode(_ changes: [ValueChange]) -> [UInt8] {
    var size = 0
    for change in changes { size += 2 + change.id.utf8.count + 24 }
    // Sized first and written in place: a commit encodes tens of
    // thousands of changes, on the writer thread that shares the cores.
    return [UInt8](unsafeUninitializedCapacity: size) { bytes, initialized in
      let raw = UnsafeMutableRawBufferPointer(bytes)
      var offset = 0
      func put<Integer: FixedWidthInteger>(_ value: Integer) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Integer.self)
        offset += MemoryLayout<Integer>.size
      }
      for change in changes {
        var id = change.id
        id.withUTF8 { utf8 in
          put(UInt16(utf8.count))
          UnsafeMutableRawBufferPointer(rebasing: raw[offset..<offset + utf8.count])
            .copyMemory(from: UnsafeRawBufferPointer(utf8))
          offset += utf8.count
        }
        put(change.value.bitPattern)
        put(change.revision)
        put(change.updatedAtMs)
      }
      initialized = offset
    }
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
}
