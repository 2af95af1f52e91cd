import GaugeNATS
import NATSTesting
import Testing

/// Watches of all keys: from a revision, updates only, and when continuity
/// cannot be proven.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WatchTests {
  @Test func fromARevisionSeesExactlyTheLaterChangesInOrder() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b", history: 5))
      let a1 = try bucket.put("a", bytes("a1"))
      let b1 = try bucket.put("b", bytes("b1"))
      let a2 = try bucket.put("a", bytes("a2"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(
        from: .revision(b1), handler: recorder.handler, finished: recorder.finished)
      #expect(a1 < b1)
      // Live changes only once the catch-up is over; written earlier, they
      // could be part of it.
      _ = try await recorder.waitForEvents(3)
      let deleted = try bucket.delete("b")
      let c1 = try bucket.put("c", bytes("c1"))
      let events = try await recorder.waitForEvents(5)
      guard case .written(let deletion) = deleted else {
        Issue.record("delete: \(deleted)")
        return
      }
      #expect(
        events == [
          .change(KVChange(key: "b", operation: .put(bytes("b1")), revision: b1)),
          .change(KVChange(key: "a", operation: .put(bytes("a2")), revision: a2)),
          .caughtUp,
          .change(KVChange(key: "b", operation: .delete, revision: deletion)),
          .change(KVChange(key: "c", operation: .put(bytes("c1")), revision: c1)),
        ])
      watch.stop()
      try await waitUntil("the watch to finish") { recorder.isFinished }
      // Nothing after the stop.
      _ = try bucket.put("d", bytes("d1"))
      try await Task.sleep(for: .milliseconds(200))
      #expect(recorder.events.count == 5)
    }
  }

  @Test func asASequence() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let first = try bucket.put("a", bytes("1"))
      var events = try bucket.watchEvents(from: .revision(1)).makeAsyncIterator()
      #expect(
        await events.next()
          == .change(KVChange(key: "a", operation: .put(bytes("1")), revision: first)))
      #expect(await events.next() == .caughtUp)
      let second = try bucket.put("a", bytes("2"))
      #expect(
        await events.next()
          == .change(KVChange(key: "a", operation: .put(bytes("2")), revision: second)))
      bucket.close()
      // Closing the connection ends the sequence.
      #expect(await events.next() == nil)
    }
  }

  @Test func updatesOnly() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      _ = try bucket.put("old", bytes("1"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .updatesOnly, handler: recorder.handler)
      defer { watch.stop() }
      let fresh = try bucket.put("new", bytes("2"))
      #expect(
        try await recorder.waitForEvents(2) == [
          .caughtUp, .change(KVChange(key: "new", operation: .put(bytes("2")), revision: fresh)),
        ])
    }
  }

  @Test func fromTheNextRevisionIsCaughtUpAtOnce() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let last = try bucket.put("a", bytes("1"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .revision(last + 1), handler: recorder.handler)
      defer { watch.stop() }
      let next = try bucket.put("a", bytes("2"))
      #expect(
        try await recorder.waitForEvents(2) == [
          .caughtUp, .change(KVChange(key: "a", operation: .put(bytes("2")), revision: next)),
        ])
    }
  }

  @Test func afterAPurgeContinuityIsLost() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b", history: 5))
      let a1 = try bucket.put("a", bytes("1"))
      let b1 = try bucket.put("b", bytes("2"))
      // The purge drops a's history, the bucket's oldest revision with it.
      try bucket.purge("a")
      let range = try bucket.revisionRange()
      #expect(range.first == b1)

      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .revision(a1), handler: recorder.handler)
      defer { watch.stop() }
      #expect(
        try await recorder.waitForEvents(4) == [
          .continuityLost(.historyPurged(requested: a1, firstAvailable: b1)),
          .change(KVChange(key: "b", operation: .put(bytes("2")), revision: b1)),
          .change(KVChange(key: "a", operation: .purge, revision: range.last)),
          .caughtUp,
        ])

      // From what the bucket still holds, continuity is provable.
      let resumed = EventRecorder()
      let resumedWatch = try bucket.watch(from: .revision(b1), handler: resumed.handler)
      defer { resumedWatch.stop() }
      let events = try await resumed.waitForEvents(3)
      #expect(!events.contains { if case .continuityLost = $0 { true } else { false } })
    }
  }

  @Test func goesOnAfterTheServerRestarts() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let before = try bucket.put("a", bytes("1"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .revision(1), handler: recorder.handler)
      defer { watch.stop() }
      _ = try await recorder.waitForEvents(2)

      server.kill()
      try await waitUntil("disconnected") { bucket.connectionState == .disconnected }
      try server.start()
      // libnats makes the consumer again from the revision after the last
      // one delivered: the next change arrives once, nothing twice.
      let after = try await eventually("a put after the restart") {
        try bucket.put("b", bytes("2"))
      }
      #expect(
        try await recorder.waitForEvents(3) == [
          .change(KVChange(key: "a", operation: .put(bytes("1")), revision: before)), .caughtUp,
          .change(KVChange(key: "b", operation: .put(bytes("2")), revision: after)),
        ])
      let later = try bucket.put("c", bytes("3"))
      #expect(
        try await recorder.waitForEvents(4).last
          == .change(KVChange(key: "c", operation: .put(bytes("3")), revision: later)))
      #expect(recorder.events.count == 4)
    }
  }

  @Test func aRevisionAheadOfTheBucketIsLostContinuity() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let last = try bucket.put("a", bytes("1"))
      let recorder = EventRecorder()
      let watch = try bucket.watch(from: .revision(last + 100), handler: recorder.handler)
      defer { watch.stop() }
      // What the bucket writes next still arrives.
      let next = try bucket.put("a", bytes("2"))
      #expect(
        try await recorder.waitForEvents(3) == [
          .continuityLost(.revisionAhead(requested: last + 100, lastRevision: last)), .caughtUp,
          .change(KVChange(key: "a", operation: .put(bytes("2")), revision: next)),
        ])
    }
  }
}
