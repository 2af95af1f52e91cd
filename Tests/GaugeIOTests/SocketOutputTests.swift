import GaugeIO
import Testing

@Suite struct SocketOutputTests {
  @Test func whatTheSocketTakesGoesAndTheRestWaitsItsTurn() throws {
    let (client, server) = try connectedPair(on: "127.0.0.1:0")
    defer {
      client.close()
      server.close()
    }
    var output = SocketOutput()
    output.refill { $0.append(contentsOf: Array("hello".utf8)) }
    let small = try output.write(to: client)
    #expect(small.written == 5)
    #expect(small.drained)
    #expect(output.pending == 0)
    #expect(try server.read(count: 5) == "hello")

    // Far more than the socket buffers hold: written over several rounds,
    // each resuming where the last stopped, in order.
    // ASCII, so `read(count:)`'s string holds the bytes as sent.
    let large = (0..<(8 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    output.refill { $0.append(contentsOf: large) }
    var written = 0
    var received: [UInt8] = []
    var rounds = 0
    while true {
      let round = try output.write(to: client)
      written += round.written
      rounds += 1
      #expect(output.pending == large.count - written)
      if written > received.count {
        received += Array(try server.read(count: written - received.count).utf8)
      }
      if round.drained { break }
      try #require(rounds < 100_000, "the socket never drained")
    }
    #expect(rounds > 1)
    #expect(written == large.count)
    #expect(received == large)
  }
}
