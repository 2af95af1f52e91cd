import GaugeNATS
import NATSTesting
import Synchronization
import Testing

/// The connection's states as the bucket reports them, and writes while
/// the server is away.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ConnectionTests {
  @Test func statesFollowTheServer() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      #expect(bucket.connectionState == .connected)
      let seen = Mutex<[NATSConnectionState]>([])
      bucket.observeConnection { state in seen.withLock { $0.append(state) } }
      let before = try bucket.put("cpu", bytes("1"))

      server.kill()
      try await waitUntil("disconnected") { bucket.connectionState == .disconnected }
      let error = #expect(throws: NATSError.self) { try bucket.put("cpu", bytes("2")) }
      #expect(error?.kind == .unavailable, "\(String(describing: error))")

      // Same port, same store: the connection comes back by itself, and
      // what was written before is there.
      try server.start()
      try await waitUntil("reconnected") { bucket.connectionState == .reconnected }
      let entry = try await eventually("a read after reconnecting") { try bucket.get("cpu") }
      #expect(entry == KVEntry(key: "cpu", value: bytes("1"), revision: before))

      bucket.close()
      try await waitUntil("closed") { seen.withLock { $0.last } == .closed }
      #expect(bucket.connectionState == .closed)
      #expect(seen.withLock { $0 } == [.disconnected, .reconnected, .closed])
      let closed = #expect(throws: NATSError.self) { try bucket.put("cpu", bytes("3")) }
      #expect(closed?.kind == .unavailable)
    }
  }

  @Test func statesAsASequence() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      var states = bucket.connectionStates().makeAsyncIterator()
      server.kill()
      #expect(await states.next() == .disconnected)
      try server.start()
      #expect(await states.next() == .reconnected)
      bucket.close()
      #expect(await states.next() == .closed)
      #expect(await states.next() == nil)
      // Asked for after the close, the sequence is over at once.
      var late = bucket.connectionStates().makeAsyncIterator()
      #expect(await late.next() == nil)
    }
  }
}
