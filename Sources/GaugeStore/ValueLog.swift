import GaugeDomain
import GaugeWire

/// The `value_log` row format: one commit's value-only changes packed into
/// one blob, so a commit writes one row for them however many widgets they
/// touch. Compaction later folds the log into `widgets`.
///
/// A row starts with a zero byte (no row of the first format can: its
/// first byte is the length of a non-empty id). Each change is then the
/// id's UTF-8 length (varint) and the id, the value's bit pattern (64 bits,
/// little-endian), and the revision and update time as zigzag varint
/// differences from the change before (from zero for the first). A producer
/// logs a change in about 22 bytes instead of 36, and the log's bytes are
/// most of the writer's I/O.
///
/// Rows of the first format (no marker: UInt16 id length, the id, then the
/// value, revision and update time as 64-bit little-endian integers) are
/// still read, so a log left by an older gauged is replayed.
enum ValueLog {
  private static let compactMarker: UInt8 = 0

  static func encode(_ changes: [ValueChange]) -> [UInt8] {
    var bytes: [UInt8] = []
    encode(changes, into: &bytes)
    return bytes
  }

  /// Replaces `bytes` with the row, in its capacity when that suffices: the
  /// writer encodes a row of a few hundred kilobytes every commit.
  static func encode(_ changes: [ValueChange], into bytes: inout [UInt8]) {
    // An upper bound: a varint takes at most 10 bytes.
    var bound = 1
    for change in changes { bound += 10 + change.id.utf8.count + 8 + 10 + 10 }
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(bound)
    bytes.append(contentsOf: repeatElement(0, count: bound))
    bytes.withUnsafeMutableBytes { raw in
      var writer = ByteWriter(bytes: raw)
      writer.put(compactMarker)
      var previous = (revision: UInt64(0), updatedAtMs: Int64(0))
      for change in changes {
        var id = change.id
        id.withUTF8 { utf8 in
          writer.putVarint(UInt64(utf8.count))
          writer.put(UnsafeRawBufferPointer(utf8))
        }
        writer.putLittleEndian(change.value.bitPattern)
        writer.putVarint(zigzag(Int64(bitPattern: change.revision &- previous.revision)))
        writer.putVarint(zigzag(change.updatedAtMs &- previous.updatedAtMs))
        previous = (change.revision, change.updatedAtMs)
      }
      bound = writer.offset
    }
    bytes.removeLast(bytes.count - bound)
  }

  struct Malformed: Error, CustomStringConvertible {
    var description: String {
      "a value_log row is cut short, holds an overlong number, or an id that is not UTF-8"
    }
  }

  static func decode(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> [ValueChange] {
    var reader = ByteReader(bytes: bytes)
    guard reader.remaining > 0, bytes[0] == compactMarker else {
      return try decodeFirstFormat(&reader)
    }
    _ = try reader.take(1)
    var changes: [ValueChange] = []
    var previous = (revision: UInt64(0), updatedAtMs: Int64(0))
    while reader.remaining > 0 {
      let id = try reader.id(length: Int(try reader.varint()))
      let value = Double(bitPattern: try reader.littleEndian(byteCount: 8))
      let revision = previous.revision &+ UInt64(bitPattern: unzigzag(try reader.varint()))
      let updatedAtMs = previous.updatedAtMs &+ unzigzag(try reader.varint())
      changes.append(
        ValueChange(id: id, value: value, revision: revision, updatedAtMs: updatedAtMs))
      previous = (revision, updatedAtMs)
    }
    return changes
  }

  private static func decodeFirstFormat(_ reader: inout ByteReader) throws(Malformed)
    -> [ValueChange]
  {
    var changes: [ValueChange] = []
    while reader.remaining > 0 {
      let id = try reader.id(length: Int(try reader.littleEndian(byteCount: 2)))
      let value = Double(bitPattern: try reader.littleEndian(byteCount: 8))
      let revision = try reader.littleEndian(byteCount: 8)
      let updatedAtMs = Int64(bitPattern: try reader.littleEndian(byteCount: 8))
      changes.append(
        ValueChange(id: id, value: value, revision: revision, updatedAtMs: updatedAtMs))
    }
    return changes
  }

  private static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  private static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  /// Writes into a buffer the caller sized for everything written.
  private struct ByteWriter {
    let bytes: UnsafeMutableRawBufferPointer
    var offset = 0

    mutating func put(_ byte: UInt8) {
      bytes[offset] = byte
      offset += 1
    }

    mutating func put(_ source: UnsafeRawBufferPointer) {
      UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<offset + source.count])
        .copyMemory(from: source)
      offset += source.count
    }

    mutating func putLittleEndian(_ value: UInt64) {
      bytes.storeBytes(
        of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
      offset += 8
    }

    mutating func putVarint(_ value: UInt64) {
      Varint.write(value) { put($0) }
    }
  }

  private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
      guard count <= remaining else { throw Malformed() }
      defer { offset += count }
      return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func littleEndian(byteCount: Int) throws(Malformed) -> UInt64 {
      var value: UInt64 = 0
      for (shift, byte) in try take(byteCount).enumerated() {
        value |= UInt64(byte) << (8 * shift)
      }
      return value
    }

    mutating func varint() throws(Malformed) -> UInt64 {
      var value: UInt64 = 0
      for shift in stride(from: 0, to: 64, by: 7) {
        let byte = try take(1)[0]
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
      }
      throw Malformed()
    }

    mutating func id(length: Int) throws(Malformed) -> String {
      guard let id = String(validating: try take(length), as: UTF8.self) else {
        throw Malformed()
      }
      return id
    }
  }
}
