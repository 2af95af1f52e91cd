import Foundation
import GaugeNATS
import NATSTesting
import Synchronization
import Testing

/// Put throughput against one local nats-server: blocking puts (one round
/// trip each) against asynchronous puts (acknowledged on libnats's thread).
/// A measurement, run only when `GAUGED_NATS_BENCH` is set; it still checks
/// that every put was acknowledged and the last values are there.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: ProcessInfo.processInfo.environment["GAUGED_NATS_BENCH"] != nil))
struct PutThroughputTests {
  static let keys = (0..<100).map { "w\($0)" }
  static let value = [UInt8](repeating: 0x2a, count: 100)

  @Test func syncAndAsyncPuts() async throws {
    try await withNATSServer { server in
      let bucket = try await openBucket([server.url], KVBucketSettings(name: "bench"))
      for round in 1...3 {
        let syncCount = 5_000
        let syncStart = ContinuousClock.now
        for index in 0..<syncCount {
          _ = try bucket.put(Self.keys[index % Self.keys.count], Self.value)
        }
        let syncRate = Double(syncCount) / seconds(ContinuousClock.now - syncStart)

        let asyncCount = 50_000
        let acknowledged = Mutex(0)
        let failed = Mutex(0)
        let asyncStart = ContinuousClock.now
        for index in 0..<asyncCount {
          try bucket.putAsync(Self.keys[index % Self.keys.count], Self.value) { result in
            switch result {
            case .success: acknowledged.withLock { $0 += 1 }
            case .failure: failed.withLock { $0 += 1 }
            }
          }
        }
        try await waitUntil("every acknowledgement") {
          acknowledged.withLock { $0 } + failed.withLock { $0 } == asyncCount
        }
        let asyncRate = Double(asyncCount) / seconds(ContinuousClock.now - asyncStart)
        #expect(failed.withLock { $0 } == 0)
        print(
          "round \(round): sync puts \(Int(syncRate))/s, async puts \(Int(asyncRate))/s"
            + " (\(Self.value.count)-byte values, \(Self.keys.count) keys)")
      }
      #expect(try bucket.get("w99")?.value == Self.value)
    }
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
