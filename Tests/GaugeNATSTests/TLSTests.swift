import Foundation
import GaugeNATS
import NATSTesting
import Testing

/// The connection to a nats-server that requires TLS, trusting a CA file
/// made for the test with openssl.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TLSTests {
  @Test func trustsTheGivenCAAndRefusesOthers() async throws {
    try await withTemporaryDirectory { directory in
      let authority = try TestCertificates(directory: directory + "/trusted")
      let stranger = try TestCertificates(directory: directory + "/stranger")
      let server = try NATSServerProcess(
        name: "tls", directory: directory,
        arguments: [
          "--tls", "--tlscert", authority.serverCertificate, "--tlskey", authority.serverKey,
        ])
      defer { server.kill() }
      try server.start()

      var options = NATSConnectionOptions(servers: [server.url])
      options.tlsCAFile = authority.caCertificate
      let bucket = try await eventually("open over TLS") {
        try NATSKeyValueBucket(options: options, bucket: KVBucketSettings(name: "b"))
      }
      let revision = try bucket.put("cpu", bytes("1"))
      #expect(try bucket.get("cpu") == KVEntry(key: "cpu", value: bytes("1"), revision: revision))

      options.tlsCAFile = stranger.caCertificate
      let untrusted = #expect(throws: NATSError.self) {
        try NATSKeyValueBucket(options: options, bucket: KVBucketSettings(name: "b"))
      }
      #expect(untrusted?.operation == "connect")
      #expect(untrusted?.kind == .notPermitted, "\(String(describing: untrusted))")

      options.tlsCAFile = nil
      let plain = #expect(throws: NATSError.self) {
        try NATSKeyValueBucket(options: options, bucket: KVBucketSettings(name: "b"))
      }
      #expect(plain?.kind == .notPermitted, "\(String(describing: plain))")
    }
  }
}
