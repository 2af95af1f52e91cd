import GaugeClient
import Synchronization
import Testing

/// ValuePublisher: values, rejections, back-pressure.
@Suite struct PublisherTests {
  @Test func publishesAndReportsRejections() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    let publisher = client.publisher()
    for value in 0..<1000 { try await publisher.send(id: "cpu", value: Double(value % 100)) }
    try await publisher.send(id: "missing", value: 1)
    try await publisher.send(id: "cpu", value: 500)
    let report = try await publisher.finish()
    #expect(report.accepted == 1000)
    #expect(report.rejected == 2)
    #expect(report.rejections.map(\.index) == [1000, 1001])
    #expect(report.rejections.first?.code == .notFound)
    #expect(report.rejections.first?.id == "missing")
    #expect(try await client.get(id: "cpu").content.template.mainValue == 99)
    await client.close()
  }

  @Test func sendAfterFinishFails() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let publisher = client.publisher()
    _ = try await publisher.finish()
    let error = await failure { try await publisher.send(id: "cpu", value: 1) }
    #expect(error?.code == .failedPrecondition)
    await client.close()
  }

  @Test func stalledServerSuspendsTheProducer() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    let publisher = client.publisher()
    try await publisher.send(id: "cpu", value: 1)
    server.pause()
    let sent = Atomic<Int>(1)
    let limit = 2_000_000
    let producer = Task {
      for index in 1..<limit {
        try await publisher.send(id: "cpu", value: Double(index % 100))
        sent.add(1, ordering: .relaxed)
      }
    }
    // Once the socket buffers and HTTP/2 windows are full, nothing moves.
    var previous = -1
    var settled = false
    for _ in 0..<100 {
      try await Task.sleep(for: .milliseconds(200))
      let now = sent.load(ordering: .relaxed)
      if now == previous {
        settled = true
        break
      }
      previous = now
    }
    let stalledAt = sent.load(ordering: .relaxed)
    #expect(settled)
    #expect(stalledAt < limit)
    // The suspended send gives up when its task is cancelled.
    producer.cancel()
    let error = await failure { try await producer.value }
    #expect(error?.code == .cancelled)
    server.resume()
    let report = try await publisher.finish()
    #expect(report.accepted == UInt64(sent.load(ordering: .relaxed)))
    await client.close()
  }
}
