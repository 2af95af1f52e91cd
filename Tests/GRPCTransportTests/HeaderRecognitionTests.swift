import Testing

@testable import GRPCTransport

/// Header names and the method are recognised from their bytes, without
/// making Strings; these hold that recognition to plain byte equality.
@Suite struct HeaderRecognitionTests {
  /// Every length the word comparisons split differently, with each byte
  /// in turn changed, and a longer and a shorter candidate.
  @Test func literalBytesMatchOnlyTheSameBytes() {
    let literals: [StaticString] = [
      "", "a", "te", "abc", "post", ":path", ":method", "if-match", ":authority",
      "content-type", "content-length", "sixteen-bytes-ab", "grpc-accept-encoding",
    ]
    for literal in literals {
      let bytes = Array(
        UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
      #expect(bytes.withUnsafeBytes { $0.hasBytes(of: literal) })
      for index in bytes.indices {
        var changed = bytes
        changed[index] ^= 0x01
        #expect(!changed.withUnsafeBytes { $0.hasBytes(of: literal) })
      }
      #expect(!(bytes + [0x61]).withUnsafeBytes { $0.hasBytes(of: literal) })
      if !bytes.isEmpty {
        #expect(!Array(bytes.dropLast()).withUnsafeBytes { $0.hasBytes(of: literal) })
      }
    }
  }

  @Test(arguments: [
    ("POST", RequestMethod.post), ("GET", .get), ("HEAD", .head), ("OPTIONS", .options),
    ("CONNECT", .connect), ("post", .other),
    ("POSTS", .other), ("PUT", .other), ("", .other),
  ])
  func methodIsReadCaseSensitively(text: String, method: RequestMethod) {
    #expect(Array(text.utf8).withUnsafeBytes { RequestMethod($0) } == method)
  }

  /// content-length is HTTP's, not metadata a handler should see.
  @Test func contentLengthIsNotMetadata() {
    var head = RequestHead()
    for (name, value) in [("content-length", "12"), ("x-custom", "kept")] {
      let added = Array(name.utf8).withUnsafeBytes { name in
        Array(value.utf8).withUnsafeBytes { value in
          head.add(name: name, value: value, limit: 1 << 14)
        }
      }
      #expect(added == .kept)
    }
    #expect(head.contentLength == 12)
    #expect(head.metadata.values(for: "content-length").isEmpty)
    #expect(head.metadata.values(for: "x-custom") == [.text("kept")])
  }
}
