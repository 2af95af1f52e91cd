import Testing

@testable import GaugeClient

/// The client over TLS against a real gauged serving `--tls-cert`.
@Suite struct TLSTests {
  @Test func callsAndSubscriptionsWorkTrustingTheServersCA() async throws {
    let pki = try TestPKI()
    defer { pki.remove() }
    let server = try GaugedProcess(storeArguments: ["--memory"] + pki.serverArguments)
    for target in [server.target, "localhost:\(server.port)"] {
      let client = try GaugeClient(target: target, tls: .ca(path: pki.ca))
      _ = try await client.put(id: "cpu", content: gaugeContent(2))
      let widget = try await client.get(id: "cpu")
      #expect(widget.id == "cpu")
      let collector = EventCollector(client.subscribe(ids: ["cpu"]))
      #expect(await collector.waitFor { $0.isSynced })
      let changed = try await client.put(id: "cpu", content: gaugeContent(3))
      #expect(await collector.waitFor { $0 == .upsert(changed.widget) })
      collector.cancel()
      await client.close()
    }
  }

  @Test func aServerTheSystemDoesNotTrustIsUnavailableAndSaysWhy() async throws {
    let pki = try TestPKI()
    defer { pki.remove() }
    let server = try GaugedProcess(storeArguments: ["--memory"] + pki.serverArguments)
    let client = try GaugeClient(target: server.target, tls: .system)
    let error = await failure { try await client.get(id: "cpu") }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains("certificate verify failed") == true)
    await client.close()
  }

  @Test func aCleartextClientOnATLSPortFails() async throws {
    let pki = try TestPKI()
    defer { pki.remove() }
    let server = try GaugedProcess(storeArguments: ["--memory"] + pki.serverArguments)
    let client = try GaugeClient(target: server.target)
    let error = await failure { try await client.get(id: "cpu") }
    #expect(error?.code == .unavailable)
    await client.close()
  }

  @Test func unusableTLSSettingsAreInvalidArguments() {
    let unix = #expect(throws: GaugeError.self) {
      try GaugeClient(target: "unix:/tmp/gauged.sock", tls: .system)
    }
    #expect(unix?.code == .invalidArgument)
    let missing = #expect(throws: GaugeError.self) {
      try GaugeClient(target: "127.0.0.1:1", tls: .ca(path: "/nonexistent/ca.pem"))
    }
    #expect(missing?.code == .invalidArgument)
    #expect(missing?.message.contains("/nonexistent/ca.pem") == true)
  }
}
