import GaugeJSON

/// One message type's fields as the transcoders read them: copied out of
/// its protobuf-c descriptor once, sorted by number, with the JSON names
/// laid out as bytes. A class, and its fields plain values, so reading a
/// field per value on the wire copies no reference.
final class MessageSchema: Sendable {
  struct Field: Sendable {
    var number: UInt32
    var kind: FieldKind
    var isRepeated: Bool
    /// Written packed: protobuf-c's `PACKED` flag (proto3's default is not
    /// applied; a proto3 descriptor from protoc-c carries the flag itself).
    var isPacked: Bool
    /// Fields of one oneof share a group number; nil outside any.
    var oneof: Int?
    /// For message fields, the index of their type in the graph's
    /// messages; for enum fields, in its enums.
    var target: Int
  }

  let fullName: String
  /// By number, ascending.
  let fields: [Field]
  /// Each field's lowerCamelCase name as the JSON mapping names it
  /// (`minValue`), as a key ready to write.
  let jsonKeys: [JSONByteWriter.Key]
  private let jsonNames: [[UInt8]]
  /// Every name a JSON key may give a field by: lowerCamelCase, and as the
  /// .proto spells it (`min_value`). Each comes with a word made of its
  /// length and its first and last bytes, which rules most names out
  /// before their bytes are compared.
  private let names: [(word: UInt32, field: Int)]
  private let nameBytes: [[UInt8]]
  /// The index of each field by number, for numbers below 256 (nearly
  /// all); -1 for none.
  private let indexByNumber: [Int16]

  init(fullName: String, fields: [Field], protoNames: [[UInt8]]) {
    self.fullName = fullName
    self.fields = fields
    jsonNames = protoNames.map(Self.lowerCamelCase)
    jsonKeys = jsonNames.map { JSONByteWriter.Key(String(decoding: $0, as: UTF8.self)) }
    var names: [(word: UInt32, field: Int)] = []
    var nameBytes: [[UInt8]] = []
    for (index, name) in jsonNames.enumerated() {
      names.append((Self.word(name), index))
      nameBytes.append(name)
      if protoNames[index] != name {
        names.append((Self.word(protoNames[index]), index))
        nameBytes.append(protoNames[index])
      }
    }
    self.names = names
    self.nameBytes = nameBytes
    var indexByNumber: [Int16] = []
    if let last = fields.last, last.number < 256 {
      indexByNumber = Array(repeating: -1, count: Int(last.number) + 1)
      for (index, field) in fields.enumerated() { indexByNumber[Int(field.number)] = Int16(index) }
    }
    self.indexByNumber = indexByNumber
  }

  /// Field `index`'s name in error paths when the client wrote none
  /// (binary input): its JSON name.
  func pathName(_ index: Int) -> String {
    String(decoding: jsonNames[index], as: UTF8.self)
  }

  /// The index in `fields` of field `number`.
  func index(ofNumber number: UInt32) -> Int? {
    if number < indexByNumber.count {
      let index = indexByNumber[Int(number)]
      return index < 0 ? nil : Int(index)
    }
    guard indexByNumber.isEmpty else { return nil }
    var low = 0
    var high = fields.count
    while low < high {
      let middle = (low + high) / 2
      let found = fields[middle].number
      if found == number { return middle }
      if found < number { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// The index in `fields` of the field a JSON key names.
  func index(ofName name: UnsafeRawBufferPointer) -> Int? {
    let word = Self.word(name)
    for (position, candidate) in names.enumerated() where candidate.word == word {
      let matches = nameBytes[position].withUnsafeBytes { known in
        guard known.count == name.count else { return false }
        for offset in 1..<max(known.count - 1, 1) where known[offset] != name[offset] {
          return false
        }
        return true
      }
      if matches { return candidate.field }
    }
    return nil
  }

  private static func word(_ name: some Collection<UInt8>) -> UInt32 {
    guard let first = name.first else { return 0 }
    return UInt32(truncatingIfNeeded: name.count) << 16 | UInt32(first) << 8
      | UInt32(name[name.index(name.startIndex, offsetBy: name.count - 1)])
  }

  /// The JSON mapping's field name: each `_` dropped and the letter after
  /// it capitalised (`min_value` → `minValue`), the rest kept as it is.
  static func lowerCamelCase(_ protoName: [UInt8]) -> [UInt8] {
    var name: [UInt8] = []
    name.reserveCapacity(protoName.count)
    var capitalizeNext = false
    for byte in protoName {
      if byte == UInt8(ascii: "_") {
        capitalizeNext = true
      } else if capitalizeNext, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
        name.append(byte - 32)
        capitalizeNext = false
      } else {
        name.append(byte)
        capitalizeNext = false
      }
    }
    return name
  }
}
