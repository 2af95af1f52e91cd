import GaugeJSON

/// Writes one JSON object as a binary message while reading it: no tree,
/// no String per key or value. Each field is written where its member
/// comes; a message whose members came out of number order has its fields
/// put in order when it ends. Nothing here is lenient about names: an
/// unknown or repeated field is an error naming it.
struct JSONToBinary {
  /// What the reading of a message remembers of each field given so far.
  private struct Given {
    /// The key as the client wrote it, for errors about a later one.
    var key: JSONString
    var isNull: Bool
    /// Where the field's bytes are in the output.
    var bytes: Range<Int>
  }

  private let graph: SchemaGraph
  private(set) var output: WireOutput
  private var reader: JSONReader
  /// Objects and arrays open around the value being read.
  private var depth = 0
  /// Set when the input stops being JSON: that error is about the whole
  /// body, so `write` throws it without the path it was thrown through.
  private var syntaxError: JSONParser.Error?

  init(graph: SchemaGraph, json: UnsafeRawBufferPointer) {
    self.graph = graph
    reader = JSONReader(json)
    output = WireOutput(capacity: json.count / 2)
  }

  /// The whole input: one object, of message type `message`.
  mutating func write(_ message: Int) throws(ProtoJSONError) {
    do throws(ProtoJSONError) {
      guard try nextKind() == .object else { throw .body("must be a JSON object") }
      try writeMessage(message)
      try json { (reader) throws(JSONParser.Error) in try reader.finish() }
    } catch {
      guard let syntaxError else { throw error }
      throw .body(
        "is not valid JSON: line \(syntaxError.line), column \(syntaxError.column): "
          + syntaxError.reason)
    }
  }

  /// The object the reader is at, as message `index`.
  private mutating func writeMessage(_ index: Int) throws(ProtoJSONError) {
    let schema = graph.messages[index]
    try NestingLimit.check(depth + 1)
    depth += 1
    defer { depth -= 1 }
    try json { (reader) throws(JSONParser.Error) in try reader.beginObject() }
    let start = output.bytes.count
    try withUnsafeTemporaryAllocation(of: Given?.self, capacity: schema.fields.count) {
      (given) throws(ProtoJSONError) in
      given.initialize(repeating: nil)
      var inOrder = true
      var last = -1
      while let key = try json({ (reader) throws(JSONParser.Error) in try reader.nextMember() }) {
        let index = try fieldIndex(of: key, in: schema)
        if let first = given[index] {
          let (earlier, now) = (first.key.value, key.value)
          throw ProtoJSONError(
            field: now, rule: earlier == now ? "is given twice" : "is the same field as \(earlier)")
        }
        let fieldStart = output.bytes.count
        // null leaves a field unset, so it sets no oneof member either.
        let isNull = try nextKind() == .null
        if isNull {
          try json { (reader) throws(JSONParser.Error) in try reader.null() }
        } else {
          try checkOneof(index, key, of: schema, given)
          do throws(ProtoJSONError) {
            try writeField(schema.fields[index])
          } catch {
            throw error.inField(key.value)
          }
          inOrder = inOrder && index > last
          last = index
        }
        given[index] = Given(key: key, isNull: isNull, bytes: fieldStart..<output.bytes.count)
      }
      if !inOrder { putInOrder(from: start, given) }
    }
  }

  private func fieldIndex(of key: JSONString, in schema: MessageSchema) throws(ProtoJSONError)
    -> Int
  {
    var found: Int?
    if key.hasEscapes {
      var name: [UInt8] = []
      key.append(to: &name)
      found = name.withUnsafeBytes { schema.index(ofName: $0) }
    } else {
      found = schema.index(ofName: key.raw)
    }
    guard let found else {
      throw ProtoJSONError(field: key.value, rule: "is not a known field of \(schema.fullName)")
    }
    return found
  }

  /// Refuses a second member of a oneof, naming it.
  private func checkOneof(
    _ index: Int, _ key: JSONString, of schema: MessageSchema,
    _ given: UnsafeMutableBufferPointer<Given?>
  ) throws(ProtoJSONError) {
    guard let oneof = schema.fields[index].oneof else { return }
    for other in schema.fields.indices where schema.fields[other].oneof == oneof {
      guard let set = given[other], !set.isNull else { continue }
      throw ProtoJSONError(
        field: key.value, rule: "is in a oneof with \(set.key.value), which is already set")
    }
  }

  /// Moves the fields written since `start` into number order (protobuf
  /// readers take any order, but protobuf writes this one).
  private mutating func putInOrder(from start: Int, _ given: UnsafeMutableBufferPointer<Given?>) {
    var ordered: [UInt8] = []
    ordered.reserveCapacity(output.bytes.count - start)
    for case let field? in given {
      ordered.append(contentsOf: output.bytes[field.bytes])
    }
    output.bytes.replaceSubrange(start..., with: ordered)
  }

  /// One member's value, as `field`: an array of values when repeated.
  private mutating func writeField(_ field: MessageSchema.Field) throws(ProtoJSONError) {
    guard field.isRepeated else { return try writeValue(field) }
    guard try nextKind() == .array else { throw .body("must be an array") }
    try NestingLimit.check(depth + 1)
    depth += 1
    defer { depth -= 1 }
    try json { (reader) throws(JSONParser.Error) in try reader.beginArray() }
    let start = output.bytes.count
    var packedStart: Int?
    if field.isPacked {
      output.key(field.number, .lengthDelimited)
      packedStart = output.beginLengthDelimited()
    }
    var count = 0
    while try json({ (reader) throws(JSONParser.Error) in try reader.nextElement() }) {
      do throws(ProtoJSONError) {
        guard try nextKind() != .null else { throw .body("must not be null") }
        if field.isPacked { try writeScalar(field) } else { try writeValue(field) }
      } catch {
        throw error.atIndex(count)
      }
      count += 1
    }
    guard let packedStart else { return }
    // An empty array writes nothing, as an unset repeated field.
    if count == 0 { return output.bytes.removeSubrange(start...) }
    output.endLengthDelimited(packedStart)
  }

  /// One value with its key.
  private mutating func writeValue(_ field: MessageSchema.Field) throws(ProtoJSONError) {
    switch field.kind {
    case .message:
      guard try nextKind() == .object else { throw .body("must be an object") }
      output.key(field.number, .lengthDelimited)
      let start = output.beginLengthDelimited()
      try writeMessage(field.target)
      output.endLengthDelimited(start)
    case .string:
      guard try nextKind() == .string else { throw .body("must be a string") }
      let text = try string()
      output.key(field.number, .lengthDelimited)
      guard text.hasEscapes else {
        output.varint(UInt64(text.raw.count))
        return output.append(text.raw)
      }
      let start = output.beginLengthDelimited()
      text.append(to: &output.bytes)
      output.endLengthDelimited(start)
    case .bytes:
      guard try nextKind() == .string else { throw .body("must be a base64 string") }
      let text = try string()
      output.key(field.number, .lengthDelimited)
      let start = output.beginLengthDelimited()
      var decoded = true
      if text.hasEscapes {
        var symbols: [UInt8] = []
        text.append(to: &symbols)
        decoded = symbols.withUnsafeBytes { Base64.decode($0, into: &output.bytes) }
      } else {
        decoded = Base64.decode(text.raw, into: &output.bytes)
      }
      guard decoded else { throw .body("is not valid base64") }
      output.endLengthDelimited(start)
    default:
      output.key(field.number, field.kind.wireType)
      try writeScalar(field)
    }
  }

  /// A numeric, bool or enum value, without its key (packed elements have
  /// none).
  private mutating func writeScalar(_ field: MessageSchema.Field) throws(ProtoJSONError) {
    let kind = try nextKind()
    switch field.kind {
    case .float, .double:
      let value: Double
      switch kind {
      case .number: value = try NumberInput.floating(try number(), as: field.kind)
      case .string: value = try NumberInput.floating(try string(), as: field.kind)
      default: throw .body("must be a number")
      }
      if field.kind == .float {
        output.fixed32(Float(value).bitPattern)
      } else {
        output.fixed64(value.bitPattern)
      }
    case .bool:
      guard kind == .bool else { throw .body("must be true or false") }
      output.varint(try json { (reader) throws(JSONParser.Error) in try reader.bool() } ? 1 : 0)
    case .enumeration:
      let schema = graph.enums[field.target]
      switch kind {
      case .string:
        guard let number = schema.number(named: try string()) else {
          throw .body("is not a value of \(schema.fullName)")
        }
        output.varint(UInt64(bitPattern: Int64(number)))
      case .number:
        output.varint(try NumberInput.whole(try number(), as: .enumeration).bits)
      default:
        throw .body("must be a value name of \(schema.fullName) or an integer")
      }
    default:
      let whole: NumberInput.Whole
      switch kind {
      case .number: whole = try NumberInput.whole(try number(), as: field.kind)
      case .string: whole = try NumberInput.whole(try string(), as: field.kind)
      default: throw .body("must be an integer")
      }
      switch field.kind {
      case .sint32, .sint64:
        let signed = Int64(bitPattern: whole.bits)
        output.varint(UInt64(bitPattern: signed << 1 ^ signed >> 63))
      case .sfixed32, .fixed32: output.fixed32(UInt32(truncatingIfNeeded: whole.bits))
      case .sfixed64, .fixed64: output.fixed64(whole.bits)
      // Negative int32s take ten bytes, sign-extended, as protobuf writes them.
      default: output.varint(whole.bits)
      }
    }
  }

  // The reader's steps, each noting a syntax error as it goes by.

  private mutating func json<Result>(
    _ step: (inout JSONReader) throws(JSONParser.Error) -> Result
  ) throws(ProtoJSONError) -> Result {
    do {
      return try step(&reader)
    } catch {
      syntaxError = error
      throw .body("is not valid JSON")
    }
  }

  private mutating func nextKind() throws(ProtoJSONError) -> JSONReader.Kind {
    try json { (reader) throws(JSONParser.Error) in try reader.nextKind() }
  }

  private mutating func string() throws(ProtoJSONError) -> JSONString {
    try json { (reader) throws(JSONParser.Error) in try reader.string() }
  }

  private mutating func number() throws(ProtoJSONError) -> JSONNumber {
    try json { (reader) throws(JSONParser.Error) in try reader.number() }
  }
}
