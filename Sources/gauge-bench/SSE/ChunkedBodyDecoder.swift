/// HTTP/1.1's chunked transfer coding (RFC 9112, section 7.1) undone as
/// bytes arrive, split anywhere: the chunks' data is handed on, their size
/// lines, extensions and the trailer section are dropped.
struct ChunkedBodyDecoder {
  private enum State: Equatable {
    /// Reading the hex digits of a chunk's size.
    case size(Int, digits: Int)
    /// After the size: an extension or whitespace, up to the line's end.
    case sizeLineRest(Int)
    case data(remaining: Int)
    /// The CRLF after a chunk's data.
    case dataEnd(sawCR: Bool)
    /// After the last chunk: trailer lines until an empty one.
    case trailers(lineLength: Int)
    case finished
    case malformed(String)
  }

  /// Sizes of 2^60 bytes and up are refused rather than overflowing.
  private static let maximumSizeDigits = 15

  private var state = State.size(0, digits: 0)

  /// The last chunk and the trailer section have been read.
  var isFinished: Bool { state == .finished }

  /// Why the bytes are not a chunked body; nothing more is decoded after it.
  var failure: String? {
    if case .malformed(let reason) = state { return reason }
    return nil
  }

  /// Calls `body` with each run of data in `bytes`, in order.
  mutating func decode(
    _ bytes: UnsafeRawBufferPointer, body: (UnsafeRawBufferPointer) -> Void
  ) {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch state {
      case .size(let size, let digits):
        if let digit = Self.hexValue(byte) {
          guard digits < Self.maximumSizeDigits else {
            return fail("a chunk size of more than \(Self.maximumSizeDigits) hex digits")
          }
          state = .size(size << 4 | digit, digits: digits + 1)
        } else if digits == 0 {
          return fail("a chunk size line starting with byte \(byte)")
        } else {
          state = .sizeLineRest(size)
          continue
        }
      case .sizeLineRest(let size):
        if byte == 10 {
          state = size == 0 ? .trailers(lineLength: 0) : .data(remaining: size)
        }
      case .data(let remaining):
        let taken = min(remaining, bytes.count - index)
        body(UnsafeRawBufferPointer(rebasing: bytes[index..<index + taken]))
        index += taken
        state = remaining == taken ? .dataEnd(sawCR: false) : .data(remaining: remaining - taken)
        continue
      case .dataEnd(let sawCR):
        if byte == 13, !sawCR {
          state = .dataEnd(sawCR: true)
        } else if byte == 10 {
          state = .size(0, digits: 0)
        } else {
          return fail("chunk data longer than its size")
        }
      case .trailers(let lineLength):
        if byte == 10 {
          state = lineLength == 0 ? .finished : .trailers(lineLength: 0)
        } else if byte != 13 {
          state = .trailers(lineLength: lineLength + 1)
        }
      case .finished:
        return fail("bytes after the last chunk")
      case .malformed:
        return
      }
      index += 1
    }
  }

  private mutating func fail(_ reason: String) {
    state = .malformed(reason)
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
