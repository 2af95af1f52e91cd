import GaugeJSON

/// Writes one binary message as JSON. Fields come out in number order
/// however the wire ordered them, so a message is read in two steps: its
/// fields are collected (`Entry`: where each value lies), ordered, then
/// written. Nested messages collect on the same stack of entries.
struct BinaryToJSON {
  private struct Entry {
    /// Index in the message's fields.
    var field: Int
    /// Order on the wire, across all the pieces of one message.
    var sequence: Int
    var wireType: WireType
    var scalar: UInt64
    var payload: UnsafeRawBufferPointer
  }

  private let graph: SchemaGraph
  private(set) var writer: JSONByteWriter
  private var entries: [Entry] = []
  private var depth = 0

  init(graph: SchemaGraph, capacity: Int) {
    self.graph = graph
    writer = JSONByteWriter(capacity: capacity)
    entries.reserveCapacity(32)
  }

  mutating func write(_ message: Int, from bytes: UnsafeRawBufferPointer) throws(ProtoJSONError) {
    entries.append(
      Entry(field: -1, sequence: 0, wireType: .lengthDelimited, scalar: 0, payload: bytes))
    try writeMessage(message, pieces: 0..<1)
  }

  /// Message `index` from the payloads of `pieces`: one, or all the
  /// occurrences of a singular message field, which protobuf merges as if
  /// their bytes were one.
  private mutating func writeMessage(_ index: Int, pieces: Range<Int>) throws(ProtoJSONError) {
    let schema = graph.messages[index]
    try enter()
    writer.beginObject()
    let base = entries.count
    for piece in pieces {
      try collect(entries[piece].payload, of: schema)
    }
    let end = entries.count
    // Writers nearly always put fields in number order; sort only if not.
    if !isInFieldOrder(base..<end) {
      entries[base..<end].sort { ($0.field, $0.sequence) < ($1.field, $1.sequence) }
    }
    var start = base
    while start < end {
      var stop = start + 1
      while stop < end, entries[stop].field == entries[start].field { stop += 1 }
      let index = entries[start].field
      do throws(ProtoJSONError) {
        try writeField(index, start..<stop, among: base..<end, of: schema)
      } catch {
        throw error.inField(schema.pathName(index))
      }
      start = stop
    }
    writer.endObject()
    depth -= 1
    entries.removeSubrange(base...)
  }

  private func isInFieldOrder(_ range: Range<Int>) -> Bool {
    var previous = -1
    for index in range {
      guard entries[index].field >= previous else { return false }
      previous = entries[index].field
    }
    return true
  }

  /// Appends an entry for every known field of `payload`; unknown ones are
  /// stepped over.
  private mutating func collect(
    _ payload: UnsafeRawBufferPointer, of schema: MessageSchema
  ) throws(ProtoJSONError) {
    var scanner = WireScanner(payload)
    while !scanner.isAtEnd {
      let key = try scanner.key()
      guard let index = schema.index(ofNumber: key.number) else {
        _ = try scanner.value(key.wireType)
        continue
      }
      let field = schema.fields[index]
      let native = field.kind.wireType
      guard
        key.wireType == native
          || (field.isRepeated && field.kind.isPackable && key.wireType == .lengthDelimited)
      else {
        let rule = "has wire type \(key.wireType.rawValue), but a \(field.kind.protoName) field"
        throw ProtoJSONError.body("\(rule) has \(native.rawValue)").inField(schema.pathName(index))
      }
      do throws(ProtoJSONError) {
        let (scalar, payload) = try scanner.value(key.wireType)
        entries.append(
          Entry(
            field: index, sequence: entries.count, wireType: key.wireType, scalar: scalar,
            payload: payload))
      } catch {
        throw error.inField(schema.pathName(index))
      }
    }
  }

  /// Field `index` of `schema` from its entries `run`, in wire order.
  private mutating func writeField(
    _ index: Int, _ run: Range<Int>, among message: Range<Int>, of schema: MessageSchema
  ) throws(ProtoJSONError) {
    let field = schema.fields[index]
    var run = run
    if let oneof = field.oneof {
      // The member set last wins, and only what came after the last other
      // member counts: setting another member cleared it.
      guard let since = lastSet(oneof, member: run, among: message, of: schema) else { return }
      run = (run.firstIndex { entries[$0].sequence > since } ?? run.upperBound)..<run.upperBound
    }
    guard field.isRepeated else {
      writer.key(schema.jsonKeys[index])
      if field.kind == .message {
        return try writeMessage(field.target, pieces: run)
      }
      let last = entries[run.upperBound - 1]
      return try writeValue(field, last.scalar, last.payload)
    }
    let packed = field.kind.isPackable
    guard
      run.contains(where: {
        !(packed && entries[$0].wireType == .lengthDelimited && entries[$0].payload.isEmpty)
      })
    else { return }
    writer.key(schema.jsonKeys[index])
    try enter()
    writer.beginArray()
    var element = 0
    for position in run {
      let entry = entries[position]
      do throws(ProtoJSONError) {
        if packed, entry.wireType == .lengthDelimited {
          var scanner = WireScanner(entry.payload)
          while !scanner.isAtEnd {
            let (scalar, _) = try scanner.value(field.kind.wireType)
            try writeValue(field, scalar, entry.payload)
            element += 1
          }
        } else if field.kind == .message {
          try writeMessage(field.target, pieces: position..<(position + 1))
          element += 1
        } else {
          try writeValue(field, entry.scalar, entry.payload)
          element += 1
        }
      } catch {
        throw error.atIndex(element)
      }
    }
    writer.endArray()
    depth -= 1
  }

  /// The sequence of the last entry of another member of `oneof`, or -1;
  /// nil when `member` is not the member set last.
  private func lastSet(
    _ oneof: Int, member: Range<Int>, among message: Range<Int>, of schema: MessageSchema
  ) -> Int? {
    var lastOther = -1
    for index in message
    where !member.contains(index) && schema.fields[entries[index].field].oneof == oneof {
      lastOther = max(lastOther, entries[index].sequence)
    }
    return entries[member.upperBound - 1].sequence > lastOther ? lastOther : nil
  }

  /// One value that is not a message: the bits of a scalar, or the bytes
  /// of a string or bytes field.
  private mutating func writeValue(
    _ field: MessageSchema.Field, _ scalar: UInt64, _ payload: UnsafeRawBufferPointer
  ) throws(ProtoJSONError) {
    switch field.kind {
    case .int32: writeInteger(Int64(Int32(truncatingIfNeeded: scalar)))
    case .sint32:
      let bits = UInt32(truncatingIfNeeded: scalar)
      writeInteger(Int64(Int32(bitPattern: bits >> 1) ^ -Int32(bitPattern: bits & 1)))
    case .sfixed32: writeInteger(Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: scalar))))
    case .uint32, .fixed32: writer.integer(UInt64(UInt32(truncatingIfNeeded: scalar)))
    // 64-bit integers go in quotes: JavaScript's numbers would round them.
    case .int64, .sfixed64: writeQuoted(Int64(bitPattern: scalar))
    case .sint64: writeQuoted(Int64(bitPattern: scalar >> 1) ^ -Int64(bitPattern: scalar & 1))
    case .uint64, .fixed64:
      writer.raw { bytes in
        bytes.append(UInt8(ascii: "\""))
        JSONByteWriter.appendDecimal(scalar, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
      }
    case .float: writeFloat(Float(bitPattern: UInt32(truncatingIfNeeded: scalar)))
    case .double: writeDouble(Double(bitPattern: scalar))
    case .bool: writer.raw { $0.append(contentsOf: scalar != 0 ? Self.trueBytes : Self.falseBytes) }
    case .enumeration:
      let number = Int32(truncatingIfNeeded: scalar)
      if let name = graph.enums[field.target].name(of: number) {
        name.withUnsafeBytes { writer.string(utf8: $0) }
      } else {
        writeInteger(Int64(number))
      }
    case .string:
      guard UTF8Check.isValid(payload) else { throw .body("is not valid UTF-8") }
      writer.string(utf8: payload)
    case .bytes:
      writer.raw { bytes in
        bytes.append(UInt8(ascii: "\""))
        Base64.append(payload, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
      }
    case .message:
      preconditionFailure("message fields are written by writeMessage")
    }
  }

  private static let trueBytes = Array("true".utf8)
  private static let falseBytes = Array("false".utf8)

  private mutating func writeInteger(_ value: Int64) {
    guard value < 0 else { return writer.integer(UInt64(value)) }
    writer.raw { bytes in
      bytes.append(UInt8(ascii: "-"))
      JSONByteWriter.appendDecimal(value.magnitude, to: &bytes)
    }
  }

  private mutating func writeQuoted(_ value: Int64) {
    writer.raw { bytes in
      bytes.append(UInt8(ascii: "\""))
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      JSONByteWriter.appendDecimal(value.magnitude, to: &bytes)
      bytes.append(UInt8(ascii: "\""))
    }
  }

  /// Shortest text that reads back as the same double; JSON has no NaN or
  /// infinities, so the mapping spells them in quotes.
  private mutating func writeDouble(_ value: Double) {
    if value.isFinite { return writer.number(value) }
    writer.string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
  }

  /// Shortest text that reads back as the same float, which is shorter
  /// than the double's: 0.1, not 0.10000000149011612.
  private mutating func writeFloat(_ value: Float) {
    if !value.isFinite || (value == value.rounded() && value.magnitude <= 9_007_199_254_740_992) {
      return writeDouble(Double(value))
    }
    writer.raw { $0.append(contentsOf: value.description.utf8) }
  }

  private mutating func enter() throws(ProtoJSONError) {
    try NestingLimit.check(depth + 1)
    depth += 1
  }
}
