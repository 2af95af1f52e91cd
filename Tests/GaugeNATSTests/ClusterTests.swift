import GaugeNATS
import NATSTesting
import Testing

/// A bucket with three replicas on a three-node cluster, through node
/// failures, with one `NATSKeyValueBucket` all along.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct ClusterTests {
  @Test func writesSurviveOneNodeAndWaitForTwo() async throws {
    try await withNATSCluster { nodes in
      let bucket = try await openBucket(
        nodes.map(\.url), KVBucketSettings(name: "widgets", replicas: 3))
      #expect(bucket.settings.replicas == 3)
      var acknowledged: [String: UInt64] = [:]
      var next = 0
      /// Puts the next key; records it only when JetStream acknowledged it.
      func write() throws {
        let key = "w\(next)"
        acknowledged[key] = try bucket.put(key, bytes(key))
        next += 1
      }
      for _ in 0..<10 { try write() }

      // One node of three crashes: a new leader (if it led) and the client
      // (if it was connected there) take a moment, then writes go on.
      nodes[0].kill()
      try await eventually("a write after one node died") { try write() }
      for _ in 0..<20 { try write() }

      try nodes[0].start()
      try await eventually("a write with the node back") { try write() }

      // Two of three stop: no quorum, so every write fails as unavailable.
      nodes[1].stop()
      nodes[2].stop()
      for attempt in 0..<3 {
        let error = #expect(throws: NATSError.self) { try bucket.put("lost\(attempt)", bytes("x")) }
        #expect(error?.kind == .unavailable, "\(String(describing: error))")
        #expect(error?.operation == "put lost\(attempt)")
      }

      // They come back: the same object writes again, and every
      // acknowledged write is there.
      try nodes[1].start()
      try nodes[2].start()
      try await eventually("a write with quorum again", seconds: 60) { try write() }
      for _ in 0..<10 { try write() }
      for (key, revision) in acknowledged {
        let entry = try await eventually("read \(key)") { try bucket.get(key) }
        #expect(entry == KVEntry(key: key, value: bytes(key), revision: revision))
      }
      // Listing reads through a new consumer, which a cluster that just
      // regained its quorum may time out on or serve from a node still
      // applying the latest writes; it catches up.
      _ = try await eventually("list every acknowledged key") {
        let keys = Set(try bucket.keys().filter { $0.hasPrefix("w") })
        guard keys == Set(acknowledged.keys) else {
          throw TestFailure("listed \(keys.count) of \(acknowledged.count) keys")
        }
        return keys
      }
    }
  }

  @Test func aWatchGoesOnAfterQuorumReturns() async throws {
    try await withNATSCluster { nodes in
      let bucket = try await openBucket(
        nodes.map(\.url), KVBucketSettings(name: "widgets", replicas: 3))
      let first = try bucket.put("a", bytes("1"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .revision(1), handler: recorder.handler)
      defer { watch.stop() }
      _ = try await recorder.waitForEvents(2)

      nodes[1].stop()
      nodes[2].stop()
      try nodes[1].start()
      try nodes[2].start()
      let second = try await eventually("a write with quorum again", seconds: 60) {
        try bucket.put("b", bytes("2"))
      }
      // libnats notices the consumer is gone by its missing heartbeats and
      // makes it again after the last revision delivered.
      try await waitUntil("the write after the outage in the watch") {
        recorder.events.contains(
          .change(KVChange(key: "b", operation: .put(bytes("2")), revision: second)))
      }
      let third = try bucket.put("c", bytes("3"))
      try await waitUntil("the next write in the watch") {
        recorder.events.last
          == .change(KVChange(key: "c", operation: .put(bytes("3")), revision: third))
      }
      let events = recorder.events
      #expect(
        Array(events.prefix(2)) == [
          .change(KVChange(key: "a", operation: .put(bytes("1")), revision: first)), .caughtUp,
        ])
      // Each revision once, in order (a timed-out attempt at b may have
      // landed too, as a revision of its own).
      let revisions = events.compactMap { event -> UInt64? in
        if case .change(let change) = event { change.revision } else { nil }
      }
      #expect(revisions == revisions.sorted())
      #expect(Set(revisions).count == revisions.count)
    }
  }
}
