import GaugeIO
import Testing

@Suite struct SocketAddressTests {
  @Test func parsesIPv4() throws {
    let address = try SocketAddress(parsing: "127.0.0.1:50051")
    #expect(address.port == 50051)
    #expect(address.description == "127.0.0.1:50051")
  }

  @Test func parsesBracketedIPv6() throws {
    let address = try SocketAddress(parsing: "[::1]:8080")
    #expect(address.port == 8080)
    #expect(address.description == "[::1]:8080")
    #expect(try SocketAddress(parsing: "[0:0:0:0:0:0:0:1]:8080") == address)
  }

  @Test func localhostIsIPv4Loopback() throws {
    #expect(
      try SocketAddress(parsing: "localhost:50051") == SocketAddress(parsing: "127.0.0.1:50051"))
  }

  @Test func familiesAndPortsDistinguishAddresses() throws {
    #expect(try SocketAddress(parsing: "127.0.0.1:1") != SocketAddress(parsing: "[::1]:1"))
    #expect(try SocketAddress(parsing: "127.0.0.1:1") != SocketAddress(parsing: "127.0.0.1:2"))
  }

  @Test func acceptsThePortRangeBounds() throws {
    #expect(try SocketAddress(parsing: "0.0.0.0:0").port == 0)
    #expect(try SocketAddress(parsing: "[::]:65535").port == 65535)
  }

  @Test(arguments: [
    "127.0.0.1", "127.0.0.1:", ":50051", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
    "127.0.0.1:8o", "256.0.0.1:80", "::1:80", "[::1]80", "[::1:80", "[127.0.0.1]:80",
    "example.com:80", "",
  ])
  func rejectsMalformedInput(_ text: String) {
    #expect {
      try SocketAddress(parsing: text)
    } throws: { error in
      (error as? SocketAddressError)?.input == text
    }
  }
}
