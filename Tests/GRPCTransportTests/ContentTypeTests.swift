import Testing

@testable import GRPCTransport

/// gRPC's content type, told from the header's bytes: media types are
/// case-insensitive, and only `+suffix` or `;parameters` may follow.
@Suite struct ContentTypeTests {
  private func isGRPC(_ contentType: String) -> Bool {
    var head = RequestHead()
    let name = Array("content-type".utf8)
    let value = Array(contentType.utf8)
    _ = name.withUnsafeBytes { n in
      value.withUnsafeBytes { v in head.add(name: n, value: v, limit: 16 << 10) }
    }
    return head.isGRPC
  }

  @Test(arguments: [
    "application/grpc", "application/grpc+proto", "application/grpc;charset=utf-8",
    "Application/GRPC", "APPLICATION/GRPC+PROTO", "application/grpC",
  ])
  func grpcContentTypes(_ contentType: String) {
    #expect(isGRPC(contentType))
  }

  @Test(arguments: [
    "", "text/plain", "application/grpcx", "application/grp", "application/grpc-web",
    "application/json", " application/grpc",
  ])
  func otherContentTypes(_ contentType: String) {
    #expect(!isGRPC(contentType))
  }

  @Test func noContentTypeIsNotGRPC() {
    #expect(!RequestHead().isGRPC)
  }
}
