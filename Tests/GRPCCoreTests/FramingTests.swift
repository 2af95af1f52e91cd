import Testing

@testable import GRPCCore

@Suite struct FramingTests {
  @Test func timeoutUnits() {
    #expect(GRPCTimeout.parse(Array("1H".utf8)) == .seconds(3600))
    #expect(GRPCTimeout.parse(Array("2M".utf8)) == .seconds(120))
    #expect(GRPCTimeout.parse(Array("3S".utf8)) == .seconds(3))
    #expect(GRPCTimeout.parse(Array("4m".utf8)) == .milliseconds(4))
    #expect(GRPCTimeout.parse(Array("5u".utf8)) == .microseconds(5))
    #expect(GRPCTimeout.parse(Array("99999999n".utf8)) == .nanoseconds(99_999_999))
  }

  @Test(arguments: ["", "S", "1", "1x", "-1S", "123456789S", "1.5S"])
  func malformedTimeouts(text: String) {
    #expect(GRPCTimeout.parse(Array(text.utf8)) == nil)
  }

  @Test func base64RoundTripsPaddedAndUnpadded() {
    for length in 0..<10 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 200) }
      let encoded = Base64.encode(bytes)
      #expect(!encoded.contains("="))
      #expect(Base64.decode(Array(encoded.utf8)) == bytes)
      let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
      #expect(Base64.decode(Array(padded.utf8)) == bytes)
    }
    #expect(Base64.decode(Array("a$bc".utf8)) == nil)
    #expect(Base64.decode(Array("abcde".utf8)) == nil)
  }

  @Test func percentEncodingRoundTrips() {
    let text = "field: 7 is outside [0, 5]; é 100%\n"
    let encoded = PercentEncoding.encode(text)
    #expect(encoded == "field: 7 is outside [0, 5]; %C3%A9 100%25%0A")
    #expect(PercentEncoding.decode(encoded) == text)
    #expect(PercentEncoding.decode("bad %G1 escape %") == "bad %G1 escape %")
  }

  @Test func deframerYieldsWholeMessagesOnly() throws {
    var deframer = MessageDeframer(maxMessageBytes: 100)
    let bytes = framed([1, 2]) + framed([]) + framed([3])
    bytes[0..<4].withUnsafeBytes { deframer.append($0) }
    #expect(try deframer.next() == nil)
    bytes[4...].withUnsafeBytes { deframer.append($0) }
    #expect(try deframer.next() == .init(compressed: false, bytes: [1, 2]))
    #expect(try deframer.next() == .init(compressed: false, bytes: []))
    #expect(try deframer.next() == .init(compressed: false, bytes: [3]))
    #expect(try deframer.next() == nil)
    #expect(deframer.bufferedBytes == 0)
  }

  /// What `next(in:)` finds in each chunk, in order: "chunk" for a view
  /// of the chunk, "assembled" for a copy from the buffer.
  private func found(in chunks: [[UInt8]], limit: Int = 100) throws -> [(String, Bool, [UInt8])] {
    var deframer = MessageDeframer(maxMessageBytes: limit)
    var results: [(String, Bool, [UInt8])] = []
    for chunk in chunks {
      try chunk.withUnsafeBytes { raw in
        var input = raw
        while let found = try deframer.next(in: &input) {
          switch found {
          case .inChunk(let compressed, let bytes):
            results.append(("chunk", compressed, Array(bytes)))
          case .assembled(let message):
            results.append(("assembled", message.compressed, message.bytes))
          }
        }
        #expect(input.isEmpty)
      }
    }
    #expect(deframer.bufferedBytes == 0)
    return results
  }

  @Test func deframerReadsWholeMessagesInPlaceAndAssemblesSplitOnes() throws {
    let whole = try found(in: [framed([1, 2]) + framed([]) + framed([9], compressed: true)])
    #expect(whole.map(\.0) == ["chunk", "chunk", "chunk"])
    #expect(whole.map(\.1) == [false, false, true])
    #expect(whole.map(\.2) == [[1, 2], [], [9]])

    // A message split across chunks is assembled; what follows it in the
    // chunk that completes it is read in place again.
    let stream = framed([1, 2, 3]) + framed([4])
    let split = try found(in: [
      Array(stream[0..<3]), Array(stream[3..<7]), Array(stream[7...]), framed([5]),
    ])
    #expect(split.map(\.0) == ["assembled", "chunk", "chunk"])
    #expect(split.map(\.2) == [[1, 2, 3], [4], [5]])
  }

  @Test func deframerInPlaceRejectsOversizeBeforeBuffering() {
    var deframer = MessageDeframer(maxMessageBytes: 10)
    ([0, 0, 0, 0, 11, 1, 2] as [UInt8]).withUnsafeBytes { raw in
      var input = raw
      #expect(throws: GRPCStatus.self) { try deframer.next(in: &input) }
    }
    #expect(deframer.bufferedBytes == 0)
    var flags = MessageDeframer(maxMessageBytes: 10)
    ([2, 0, 0, 0, 0] as [UInt8]).withUnsafeBytes { raw in
      var input = raw
      #expect(throws: GRPCStatus.self) { try flags.next(in: &input) }
    }
  }

  @Test func deframerRejectsOversizeAndBadFlags() {
    var deframer = MessageDeframer(maxMessageBytes: 10)
    ([0, 0, 0, 0, 11] as [UInt8]).withUnsafeBytes { deframer.append($0) }
    #expect(throws: GRPCStatus.self) { try deframer.next() }
    var flags = MessageDeframer(maxMessageBytes: 10)
    ([2, 0, 0, 0, 0] as [UInt8]).withUnsafeBytes { flags.append($0) }
    #expect(throws: GRPCStatus.self) { try flags.next() }
  }
}

/// gRPC framing of one message.
private func framed(_ message: [UInt8], compressed: Bool = false) -> [UInt8] {
  var out: [UInt8] = []
  MessageFramer.append(message, compressed: compressed, to: &out)
  return out
}
