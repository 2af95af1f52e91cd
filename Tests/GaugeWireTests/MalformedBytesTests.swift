import GaugeWire
import Testing

@Suite struct MalformedBytesTests {
  typealias Decoder = @Sendable ([UInt8]) -> WireError?

  static let decoders: [Decoder] = [
    { wireError($0, with: WidgetWire.decodePutWidgetRequest) },
    { wireError($0, with: WidgetWire.decodeUpdateWidgetRequest) },
    { wireError($0, with: WidgetWire.decodeGetWidgetRequest) },
    { wireError($0, with: WidgetWire.decodeDeleteWidgetRequest) },
    { wireError($0, with: WidgetWire.decodeListWidgetsRequest) },
    { wireError($0, with: WidgetWire.decodeValueUpdate) },
    { wireError($0, with: WidgetWire.decodeSubscribeRequest) },
  ]

  static let fullWidget = ProtoBytes().message(
    1,
    ProtoBytes().string(1, "cpu-1").string(2, "CPU")
      .message(
        3,
        ProtoBytes()
          .message(
            1,
            ProtoBytes().double(1, 5).double(2, 0).double(3, 10).varint(4, 2)
              .string(5, "red").string(5, "blue").message(
                6, ProtoBytes().double(1, 3).string(2, "x"))
          )
          .string(10, "label").varint(14, 2)))

  @Test(arguments: [
    [0xFF],
    [0x0A],  // a key with no length
    [0x0A, 0x05, 0x61],  // a length past the end
    [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x61],  // a 4 GiB length
    [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // a 2^64 length
    [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // an 11-byte varint
    [0x0B, 0x0C],  // a group, which protobuf-c does not support
    [0x0F],  // wire type 7 does not exist
    [0x08, 0x01],  // a string field sent as a varint
  ])
  func garbageIsRejected(bytes: [UInt8]) {
    for decoder in Self.decoders {
      #expect(decoder(bytes) != nil)
    }
  }

  @Test func aMessageFieldSentAsAStringIsRejected() {
    #expect(wireError([0x0A, 0x01, 0x61], with: WidgetWire.decodePutWidgetRequest) != nil)
  }

  @Test func everyTruncationInsideAFieldIsRejected() throws {
    let bytes = Self.fullWidget.bytes
    _ = try decode(bytes, with: WidgetWire.decodePutWidgetRequest)
    // The request is one field, so every proper prefix cuts it short.
    for length in 1..<bytes.count {
      #expect(wireError(Array(bytes[..<length]), with: WidgetWire.decodePutWidgetRequest) != nil)
    }
  }

  @Test func randomBytesNeverCrash() {
    var random = SeededGenerator(seed: 0x6761_7567_6564)
    for _ in 0..<3000 {
      let bytes = (0..<Int.random(in: 0...48, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      for decoder in Self.decoders {
        _ = decoder(bytes)
      }
    }
  }

  /// Mutations of a valid message reach deeper than random bytes do.
  @Test func mutatedMessagesNeverCrashAndErrorsSaySomething() {
    var random = SeededGenerator(seed: 42)
    let valid = Self.fullWidget.bytes
    for _ in 0..<3000 {
      var bytes = valid
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      bytes = Array(bytes[..<Int.random(in: 0...bytes.count, using: &random)])
      for decoder in Self.decoders {
        if let error = decoder(bytes) {
          #expect(!error.message.isEmpty)
        }
      }
    }
  }
}
