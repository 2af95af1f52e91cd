/// HTTP/2 frames written by hand, for what a well-behaved client session
/// refuses to send.
enum RawFrames {
  struct Frame {
    var type: UInt8
    var flags: UInt8
    var stream: Int32
    var payload: [UInt8]

    /// RST_STREAM's or GOAWAY's error code.
    var errorCode: UInt32? {
      switch type {
      case 0x3: return word(at: 0)
      case 0x7: return word(at: 4)
      default: return nil
      }
    }

    var goAway: GoAway? {
      guard type == 0x7, let code = errorCode else { return nil }
      return GoAway(
        lastStreamID: Int32(bitPattern: word(at: 0) & 0x7fff_ffff), errorCode: code,
        debug: String(decoding: payload.dropFirst(8), as: UTF8.self))
    }

    private func word(at offset: Int) -> UInt32 {
      payload[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
  }

  struct GoAway: Equatable {
    var lastStreamID: Int32
    var errorCode: UInt32
    var debug: String
  }

  /// Whole frames from the front of `bytes`, which keeps any partial one.
  static func parse(_ bytes: inout [UInt8]) -> [Frame] {
    var frames: [Frame] = []
    var index = 0
    while bytes.count - index >= 9 {
      let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
      guard bytes.count - index >= 9 + length else { break }
      let stream = bytes[index + 5..<index + 9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      frames.append(
        Frame(
          type: bytes[index + 3], flags: bytes[index + 4],
          stream: Int32(bitPattern: stream & 0x7fff_ffff),
          payload: Array(bytes[index + 9..<index + 9 + length])))
      index += 9 + length
    }
    bytes.removeFirst(index)
    return frames
  }

  static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

  static func frame(type: UInt8, flags: UInt8 = 0, stream: Int32 = 0, payload: [UInt8] = [])
    -> [UInt8]
  {
    let length = payload.count
    let id = UInt32(bitPattern: stream)
    return [
      UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
      UInt8(id >> 24 & 0x7f), UInt8(id >> 16 & 0xff), UInt8(id >> 8 & 0xff), UInt8(id & 0xff),
    ] + payload
  }

  static func settings(_ entries: [(id: UInt16, value: UInt32)] = []) -> [UInt8] {
    var payload: [UInt8] = []
    for entry in entries {
      payload += [UInt8(entry.id >> 8), UInt8(entry.id & 0xff)]
      payload += (0..<4).map { UInt8(entry.value >> (24 - 8 * $0) & 0xff) }
    }
    return frame(type: 0x4, payload: payload)
  }

  static func ping() -> [UInt8] {
    frame(type: 0x6, payload: [UInt8](repeating: 0, count: 8))
  }

  static func headers(
    stream: Int32, block: [UInt8], endHeaders: Bool = true, endStream: Bool = false
  )
    -> [UInt8]
  {
    frame(
      type: 0x1, flags: (endHeaders ? 0x4 : 0) | (endStream ? 0x1 : 0), stream: stream,
      payload: block)
  }

  static func continuation(stream: Int32, block: [UInt8], endHeaders: Bool = false) -> [UInt8] {
    frame(type: 0x9, flags: endHeaders ? 0x4 : 0, stream: stream, payload: block)
  }

  static func reset(stream: Int32, code: UInt32 = 8) -> [UInt8] {
    frame(type: 0x3, stream: stream, payload: (0..<4).map { UInt8(code >> (24 - 8 * $0) & 0xff) })
  }

  /// A header block of literal fields that touch no HPACK table, so it
  /// leaves any encoder state alone.
  static func block(_ fields: [(String, String)]) -> [UInt8] {
    var out: [UInt8] = []
    for (name, value) in fields {
      out.append(0)
      string(Array(name.utf8), into: &out)
      string(Array(value.utf8), into: &out)
    }
    return out
  }

  static func requestBlock(path: String, extra: [(String, String)] = []) -> [UInt8] {
    block(InMemoryHTTP2Client.grpcHeaders(path: path, extra: extra))
  }

  /// An HPACK string literal without Huffman coding (RFC 7541 5.2).
  private static func string(_ bytes: [UInt8], into out: inout [UInt8]) {
    if bytes.count < 127 {
      out.append(UInt8(bytes.count))
    } else {
      out.append(127)
      var rest = bytes.count - 127
      while rest >= 128 {
        out.append(UInt8(rest & 0x7f) | 0x80)
        rest >>= 7
      }
      out.append(UInt8(rest))
    }
    out += bytes
  }
}
