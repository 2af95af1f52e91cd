import GaugeNATS
import NATSTesting
import Testing

/// Opening, writes, compare-and-set and reads against one real nats-server.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BucketTests {
  @Test func opensCreatesAndReportsOtherSettings() async throws {
    try await withNATSServer { server in
      let wanted = KVBucketSettings(name: "widgets", replicas: 1, history: 1)
      let first = try await openBucket([server.url], wanted)
      #expect(first.opening == .created)
      #expect(first.settings == wanted)
      let again = try await openBucket([server.url], wanted)
      #expect(again.opening == .existing)
      let other = KVBucketSettings(name: "widgets", replicas: 1, history: 5)
      let differing = try await openBucket([server.url], other)
      #expect(differing.opening == .existingWithOtherSettings(wanted))
      #expect(differing.settings == wanted)
    }
  }

  @Test func putGetDeleteKeysAndEntries() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let cpu = try bucket.put("cpu", bytes("1"))
      let disk = try bucket.put("disk", bytes("2"))
      #expect(disk > cpu)
      #expect(try bucket.get("cpu") == KVEntry(key: "cpu", value: bytes("1"), revision: cpu))
      #expect(try bucket.get("absent") == nil)
      let empty = try bucket.put("empty", [])
      #expect(try bucket.get("empty") == KVEntry(key: "empty", value: [], revision: empty))

      let deleted = try bucket.delete("cpu")
      guard case .written(let deletion) = deleted else {
        Issue.record("delete: \(deleted)")
        return
      }
      #expect(deletion > empty)
      #expect(try bucket.get("cpu") == nil)
      #expect(try bucket.keys().sorted() == ["disk", "empty"])
      #expect(
        try bucket.entries().sorted { $0.key < $1.key } == [
          KVEntry(key: "disk", value: bytes("2"), revision: disk),
          KVEntry(key: "empty", value: [], revision: empty),
        ])
      #expect(try bucket.revisionRange().last == deletion)
    }
  }

  @Test func emptyBucketHasNoKeysOrEntries() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      #expect(try bucket.keys().isEmpty)
      #expect(try bucket.entries().isEmpty)
    }
  }

  @Test func createOnlyWhenAbsent() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let created = try bucket.create("cpu", bytes("1"))
      guard case .written(let revision) = created else {
        Issue.record("create: \(created)")
        return
      }
      #expect(try bucket.create("cpu", bytes("2")) == .conflict)
      #expect(try bucket.get("cpu")?.value == bytes("1"))
      _ = try bucket.delete("cpu")
      // Over the delete marker, the key counts as absent again.
      let recreated = try bucket.create("cpu", bytes("3"))
      guard case .written(let again) = recreated else {
        Issue.record("create after delete: \(recreated)")
        return
      }
      #expect(again > revision)
      #expect(try bucket.get("cpu") == KVEntry(key: "cpu", value: bytes("3"), revision: again))
    }
  }

  @Test func updateComparesTheLastRevision() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let first = try bucket.put("cpu", bytes("1"))
      _ = try bucket.put("other", bytes("x"))
      let updated = try bucket.update("cpu", bytes("2"), expectingRevision: first)
      guard case .written(let second) = updated else {
        Issue.record("update: \(updated)")
        return
      }
      // A writer that read revision `first` lost the race.
      #expect(try bucket.update("cpu", bytes("3"), expectingRevision: first) == .conflict)
      #expect(try bucket.delete("cpu", expectingRevision: first) == .conflict)
      #expect(try bucket.get("cpu") == KVEntry(key: "cpu", value: bytes("2"), revision: second))
      #expect(try bucket.update("absent", bytes("1"), expectingRevision: second) == .conflict)
      guard case .written = try bucket.delete("cpu", expectingRevision: second) else {
        Issue.record("conditional delete at the last revision failed")
        return
      }
      #expect(try bucket.get("cpu") == nil)
    }
  }

  @Test func badKeysAreTypedErrors() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      for key in ["", "a b", ".a", "a.", "a*", "a>"] {
        let error = #expect(throws: NATSError.self) { try bucket.put(key, bytes("1")) }
        #expect(error?.kind == .invalid)
        #expect(error?.operation == "put")
      }
      let error = #expect(throws: NATSError.self) { try bucket.get("a b") }
      #expect(error?.kind == .invalid)
      #expect(error?.description.hasPrefix("NATS get failed") == true)
    }
  }

  @Test func noServerIsUnavailable() async throws {
    let port = try freeLoopbackPort()
    let options = NATSConnectionOptions(
      serverList: "nats://127.0.0.1:\(port), nats://127.0.0.1:\(port)")
    #expect(options.servers.count == 2)
    let error = #expect(throws: NATSError.self) {
      try NATSKeyValueBucket(options: options, bucket: KVBucketSettings(name: "b"))
    }
    #expect(error?.operation == "connect")
    #expect(error?.kind == .unavailable)
  }

  @Test func asyncPutsAreAcknowledgedInOrder() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "b"))
      let recorder = RevisionRecorder()
      for value in 0..<500 {
        try bucket.putAsync("cpu", bytes(String(value)), completion: recorder.record)
      }
      #expect(bucket.waitForAsyncPuts(timeoutMs: 30_000))
      try await waitUntil("500 acknowledgements") { recorder.results.count == 500 }
      let revisions = try recorder.results.map { try $0.get() }
      #expect(revisions == revisions.sorted())
      #expect(Set(revisions).count == 500)
      #expect(
        try bucket.get("cpu") == KVEntry(key: "cpu", value: bytes("499"), revision: revisions.last!)
      )
    }
  }
}
