import GaugeAuth
import GaugeDomain
import Synchronization
import Testing

@testable import GaugeService

/// Last uses go to the store in batches of what changed since the last
/// write, and once more when gauged stops; nothing after that.
@Suite struct TokenUseRecorderTests {
  final class RecordingPersistence: TokenPersistence {
    let written = Mutex<[[TokenUse]]>([])

    func insert(_ token: AccessToken) throws(TokenPersistenceError) {}
    func remove(name: String) throws(TokenPersistenceError) {}
    func recordUses(_ uses: [TokenUse]) throws(TokenPersistenceError) {
      written.withLock { $0.append(uses) }
    }
  }

  static let secret: Substring = "gd_" + Substring(String(repeating: "a", count: 43))

  @Test func writesOnlyTheUsesSinceTheLastWriteAndStopsWhenFinished() {
    let registry = TokenRegistry(tokens: [
      AccessToken(name: "ci", scope: .write, digest: .sha256(of: Self.secret), createdMs: 1)
    ])
    let persistence = RecordingPersistence()
    let recorder = TokenUseRecorder(registry: registry, persistence: persistence)
    recorder.record()
    #expect(persistence.written.withLock { $0 }.isEmpty)
    _ = registry.authenticate(Self.secret, nowMs: 5_000)
    recorder.record()
    _ = registry.authenticate(Self.secret, nowMs: 9_000)
    recorder.finish()
    _ = registry.authenticate(Self.secret, nowMs: 12_000)
    recorder.record()
    recorder.finish()
    #expect(
      persistence.written.withLock { $0 } == [
        [TokenUse(name: "ci", lastUsedMs: 5_000)], [TokenUse(name: "ci", lastUsedMs: 9_000)],
      ])
  }
}
