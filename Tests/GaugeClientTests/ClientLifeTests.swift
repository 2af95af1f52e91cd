import GaugeClient
import Testing

/// Options, deadlines, cancellation, lost servers and `close()`.
@Suite struct ClientLifeTests {
  @Test func badTargetIsInvalidArgument() {
    let error = #expect(throws: GaugeError.self) { try GaugeClient(target: "no port here") }
    #expect(error?.code == .invalidArgument)
  }

  @Test func noServerIsUnavailableAndRetryable() async throws {
    let client = try GaugeClient(target: "127.0.0.1:\(try GaugedProcess.freePort())")
    let error = await failure { try await client.get(id: "x") }
    #expect(error?.code == .unavailable)
    #expect(error?.isRetryable == true)
    await client.close()
  }

  @Test func timeoutEndsTheCall() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    server.pause()
    defer { server.resume() }
    let started = ContinuousClock.now
    let error = await failure { try await client.get(id: "cpu", timeout: .milliseconds(200)) }
    #expect(error?.code == .deadlineExceeded)
    // Only against waiting on the paused server for good.
    #expect(ContinuousClock.now - started < .seconds(30))
    server.resume()
    await client.close()
  }

  @Test func cancellingTheTaskEndsTheCall() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    server.pause()
    defer { server.resume() }
    let call = Task { await failure { try await client.get(id: "cpu") } }
    try await Task.sleep(for: .milliseconds(100))
    let started = ContinuousClock.now
    call.cancel()
    let error = await call.value
    #expect(error?.code == .cancelled)
    // The paused server would never answer; the bound is only against a
    // hang, with room for sanitizers and a shared machine.
    #expect(ContinuousClock.now - started < .seconds(30))
    server.resume()
    // The connection is still good for other calls.
    #expect(try await client.get(id: "cpu").id == "cpu")
    await client.close()
  }

  @Test func callsAfterCloseFail() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target, token: "secret")
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    await client.close()
    let error = await failure { try await client.get(id: "cpu") }
    #expect(error?.code == .unavailable)
    await client.close()
  }

  @Test func callsReconnectAfterARestart() async throws {
    let directory = GaugedProcess.temporaryDirectory()
    let server = try GaugedProcess(storeArguments: ["--data-dir", directory])
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(3))
    try server.restart()
    let reconnected = await eventually {
      (try? await client.get(id: "cpu"))?.content.template.mainValue == 3
    }
    #expect(reconnected)
    await client.close()
  }
}
