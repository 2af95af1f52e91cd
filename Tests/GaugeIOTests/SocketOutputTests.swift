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

  @Test func bytesWrittenFromABorrowedBufferKeepOnlyWhatTheSocketLeft() throws {
    let (client, server) = try connectedPair(on: "127.0.0.1:0")
    defer {
      client.close()
      server.close()
    }
    var output = SocketOutput()
    let small = try output.write(Array("ping".utf8), to: client)
    #expect(small == (4, true))
    #expect(output.pending == 0)
    #expect(try server.read(count: 4) == "ping")

    // More than the socket takes: the rest is copied in and written later,
    // in order, by the ordinary write.
    let large = (0..<(8 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    let first = try output.write(large, to: client)
    #expect(!first.drained)
    #expect(output.pending == large.count - first.written)
    var received = Array(try server.read(count: first.written).utf8)
    var rounds = 0
    while output.pending > 0 {
      let round = try output.write(to: client)
      if round.written > 0 { received += Array(try server.read(count: round.written).utf8) }
      rounds += 1
      try #require(rounds < 100_000, "the socket never drained")
    }
    #expect(received == large)
  }
}
