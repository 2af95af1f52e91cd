import CNGHTTP2
import Testing

@testable import GRPCTransport

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

  @Test func anEmptyBlockHasNoEntries() {
    #expect(PackedHeaders([]).withNameValues { _, count in count } == 0)
  }
}
