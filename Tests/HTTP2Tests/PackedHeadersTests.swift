import CNGHTTP2
import Testing

@testable import HTTP2

@Suite struct PackedHeadersTests {
  @Test func entriesPointAtEachNameAndValueInOrder() {
    let fields = [
      HeaderField(":status", "200"), HeaderField("grpc-message", "caf\u{e9} \u{1F600}"),
      HeaderField("x-empty", ""),
    ]
    let packed = PackedHeaders(fields)

    let read = packed.withNameValues { entries, count in
      (0..<count).map { index in
        let entry = entries[index]
        #expect(entry.flags == UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        return HeaderField(
          String(
            decoding: UnsafeBufferPointer(start: entry.name, count: entry.namelen), as: UTF8.self),
          String(
            decoding: UnsafeBufferPointer(start: entry.value, count: entry.valuelen), as: UTF8.self)
        )
      }
    }
    #expect(read == fields)
    #expect(packed.fields == fields)
  }

  /// Only a block that outlives every frame lets nghttp2 skip copying it:
  /// nghttp2 reads uncopied names and values when it sends the frame.
  @Test func onlyPermanentBlocksAreLentUncopied() {
    let fields = [HeaderField(":status", "200"), HeaderField("grpc-status", "0")]
    let noCopy = UInt8(
      NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)
    let permanent = PackedHeaders(fields, permanent: true)
    #expect(
      permanent.withNameValues { entries, count in (0..<count).map { entries[$0].flags } }
        == [noCopy, noCopy])
    let temporary = PackedHeaders(fields)
    #expect(
      temporary.withNameValues { entries, count in (0..<count).map { entries[$0].flags } }
        == [0, 0])
  }

  @Test func anEmptyBlockHasNoEntries() {
    #expect(PackedHeaders([]).withNameValues { _, count in count } == 0)
  }
}
