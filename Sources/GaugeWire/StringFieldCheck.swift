import CProtobufC

/// Rejects string fields that are not UTF-8 or that contain NUL, naming the
/// field (`content.gauge.gradient[1]`).
///
/// protobuf-c checks neither for proto2: it copies the raw bytes into a
/// NUL-terminated C string, so invalid UTF-8 would reach the domain and an
/// embedded NUL would silently cut the string short (`"a\0b"` read as the id
/// `"a"`). Only the raw bytes still know a string's length, so this walks
/// them with the message's descriptor, after protobuf-c has accepted them.
enum StringFieldCheck {
  static func check(
    _ bytes: UnsafeRawBufferPointer, as descriptor: UnsafePointer<ProtobufCMessageDescriptor>
  ) throws(WireError) {
    guard let problem = firstProblem(in: bytes, as: descriptor) else { return }
    guard !problem.reversedPath.isEmpty else {
      throw WireError(message: "the bytes are not a valid protobuf message")
    }
    let path = problem.reversedPath.reversed().joined(separator: ".")
    throw WireError(message: "field \(path) \(problem.reason)")
  }

  private struct Problem {
    var reversedPath: [String]
    var reason: String
  }

  private static func firstProblem(
    in message: UnsafeRawBufferPointer, as descriptor: UnsafePointer<ProtobufCMessageDescriptor>
  ) -> Problem? {
    var reader = WireReader(message)
    while !reader.isAtEnd {
      let fieldStart = reader.offset
      guard let field = reader.nextField() else {
        return Problem(reversedPath: [], reason: "is not valid protobuf")
      }
      guard field.wireType == .lengthDelimited, let number = UInt32(exactly: field.number),
        let fieldDescriptor = protobuf_c_message_descriptor_get_field(descriptor, number)
      else { continue }

      var problem: Problem?
      switch fieldDescriptor.pointee.type {
      case PROTOBUF_C_TYPE_STRING:
        problem = stringProblem(in: field.payload).map { Problem(reversedPath: [], reason: $0) }
      case PROTOBUF_C_TYPE_MESSAGE:
        let nested = fieldDescriptor.pointee.descriptor.assumingMemoryBound(
          to: ProtobufCMessageDescriptor.self)
        problem = firstProblem(in: field.payload, as: nested)
      default:
        continue
      }
      guard var found = problem else { continue }
      var name = String(cString: fieldDescriptor.pointee.name)
      if fieldDescriptor.pointee.label == PROTOBUF_C_LABEL_REPEATED {
        let earlier = UnsafeRawBufferPointer(rebasing: message[0..<fieldStart])
        name += "[\(occurrences(of: field.number, in: earlier))]"
      }
      found.reversedPath.append(name)
      return found
    }
    return nil
  }

  static func stringProblem(in bytes: UnsafeRawBufferPointer) -> String? {
    // One pass for both questions: every publish item's id comes here.
    var hasNUL = false
    var highBits: UInt8 = 0
    for byte in bytes {
      hasNUL = hasNUL || byte == 0
      highBits |= byte
    }
    if hasNUL { return "contains a NUL character" }
    if highBits < 0x80 { return nil }
    let invalid = transcode(
      bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
    return invalid ? "is not valid UTF-8" : nil
  }

  /// The index of the next element of a repeated field.
  private static func occurrences(of number: UInt64, in bytes: UnsafeRawBufferPointer) -> Int {
    var reader = WireReader(bytes)
    var count = 0
    while !reader.isAtEnd, let field = reader.nextField() {
      if field.number == number { count += 1 }
    }
    return count
  }
}
