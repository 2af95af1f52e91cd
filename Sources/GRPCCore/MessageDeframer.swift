/// Splits a request body into gRPC messages: each is a 1-byte compressed flag,
/// a 4-byte big-endian length, then the bytes. Messages may span DATA frames,
/// and one frame may hold many. `bufferedBytes` is read per DATA frame and
/// inlined (`@usableFromInline`: see `NGHTTP2Session`).
@usableFromInline package struct MessageDeframer {
  package struct Message: Equatable {
    package var compressed: Bool
    package var bytes: [UInt8]
  }

  /// A message found by `next(in:)`. One that lies whole inside the
  /// received chunk is handed out as a view of the chunk, so the common
  /// case (each DATA frame holds whole messages) copies nothing; one that
  /// spanned chunks was assembled in the deframer's buffer.
  package enum Found {
    /// Valid only as long as the chunk it was found in.
    case inChunk(compressed: Bool, bytes: UnsafeRawBufferPointer)
    case assembled(Message)
  }

  package let maxMessageBytes: Int
  @usableFromInline var buffer: [UInt8] = []
  @usableFromInline var consumed = 0

  package init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Bytes received but not yet returned as messages.
  @inlinable package var bufferedBytes: Int { buffer.count - consumed }

  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if consumed > 0, consumed == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      consumed = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Lets go of the buffer when it holds nothing (no more input will come).
  package mutating func releaseBuffer() {
    guard bufferedBytes == 0 else { return }
    buffer = []
    consumed = 0
  }

  /// The next whole message from what is buffered followed by `input`,
  /// which is advanced past what was used; nil once `input` is used up,
  /// the start of an unfinished message having been buffered.
  /// Throws when a message's flag is invalid or its announced length is
  /// over the limit, before buffering it.
  package mutating func next(in input: inout UnsafeRawBufferPointer) throws(GRPCStatus) -> Found? {
    guard bufferedBytes == 0 else {
      // Only what completes the buffered message is taken from `input`;
      // the messages after it are read in place again.
      if bufferedBytes < 5, !take(upTo: 5 - bufferedBytes, from: &input) { return nil }
      let length = try checkedLength(
        flag: buffer[consumed], buffer[consumed + 1], buffer[consumed + 2], buffer[consumed + 3],
        buffer[consumed + 4])
      guard take(upTo: 5 + length - bufferedBytes, from: &input) else { return nil }
      return try next().map { .assembled($0) }
    }
    if input.count >= 5 {
      let length = try checkedLength(
        flag: input[0], input[1], input[2], input[3], input[4])
      if input.count >= 5 + length {
        let bytes = UnsafeRawBufferPointer(rebasing: input[5..<5 + length])
        let compressed = input[0] == 1
        input = UnsafeRawBufferPointer(rebasing: input[(5 + length)...])
        return .inChunk(compressed: compressed, bytes: bytes)
      }
    }
    if !input.isEmpty {
      append(input)
      input = UnsafeRawBufferPointer(start: nil, count: 0)
    }
    return nil
  }

  /// Moves up to `count` bytes from the front of `input` into the buffer;
  /// true when all `count` were there.
  private mutating func take(upTo count: Int, from input: inout UnsafeRawBufferPointer) -> Bool {
    let taken = min(count, input.count)
    append(UnsafeRawBufferPointer(rebasing: input[..<taken]))
    input = UnsafeRawBufferPointer(rebasing: input[taken...])
    return taken == count
  }

  /// The next whole message, nil when more bytes are needed.
  /// Throws when the announced length is over the limit, before buffering it.
  package mutating func next() throws(GRPCStatus) -> Message? {
    let available = buffer.count - consumed
    guard available >= 5 else { return nil }
    let length = try checkedLength(
      flag: buffer[consumed], buffer[consumed + 1], buffer[consumed + 2], buffer[consumed + 3],
      buffer[consumed + 4])
    guard available >= 5 + length else { return nil }
    let start = consumed + 5
    let message = Message(
      compressed: buffer[consumed] == 1, bytes: Array(buffer[start..<start + length]))
    consumed = start + length
    if consumed == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      consumed = 0
    } else if consumed > 64 * 1024 {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    return message
  }

  /// The length a message header announces, once its flag and length are
  /// known to be acceptable.
  private func checkedLength(
    flag: UInt8, _ length0: UInt8, _ length1: UInt8, _ length2: UInt8, _ length3: UInt8
  ) throws(GRPCStatus) -> Int {
    guard flag <= 1 else {
      throw GRPCStatus(.internal, "invalid gRPC message flag \(flag)")
    }
    let length = Int(length0) << 24 | Int(length1) << 16 | Int(length2) << 8 | Int(length3)
    guard length <= maxMessageBytes else {
      throw GRPCStatus(
        .resourceExhausted,
        "received message of \(length) bytes exceeds the limit of \(maxMessageBytes) bytes")
    }
    return length
  }
}
