import GaugeClient
import Testing

/// put, update, get, delete and list against a real gauged (`--memory`).
@Suite struct WidgetCallTests {
  @Test func putGetUpdateDelete() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let created = try await client.put(id: "cpu", name: "CPU", content: gaugeContent(40))
    #expect(created.created)
    #expect(created.widget.content.template.mainValue == 40)
    let replaced = try await client.put(id: "cpu", content: gaugeContent(41, label: "load"))
    #expect(!replaced.created)
    #expect(replaced.widget.revision > created.widget.revision)

    let fetched = try await client.get(id: "cpu")
    #expect(fetched == replaced.widget)

    let updated = try await client.update(
      id: "cpu",
      patch: WidgetPatch(
        content: ContentPatch(template: .gauge(GaugePatch(value: 55))), clearing: [.label]))
    #expect(updated.content.template.mainValue == 55)
    #expect(updated.content.label == nil)

    try await client.delete(id: "cpu")
    let missing = await failure { try await client.get(id: "cpu") }
    #expect(missing?.code == .notFound)
    #expect(missing?.isRetryable == false)
    await client.close()
  }

  @Test func listPagesByItself() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    for index in 0..<7 {
      _ = try await client.put(id: "disk-\(index)", content: gaugeContent(Double(index)))
    }
    _ = try await client.put(id: "other", content: gaugeContent(1))
    var ids: [String] = []
    for try await widget in client.list(prefix: "disk-", pageSize: 3) {
      ids.append(widget.id)
    }
    #expect(ids == (0..<7).map { "disk-\($0)" })
    var all = 0
    for try await _ in client.list() { all += 1 }
    #expect(all == 8)
    await client.close()
  }

  @Test func invalidContentThrowsViolations() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let error = await failure {
      try await client.put(
        id: "cpu",
        content: ContentPatch(template: .gauge(GaugePatch(value: 9, minValue: 0, maxValue: 5))))
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.isRetryable == false)
    let violation = error?.violations.first { $0.field == "content.gauge.value" }
    #expect(violation?.description == "9 is outside [0, 5]")
    await client.close()
  }

  @Test func clearingAFieldAlsoSetIsAViolation() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    let error = await failure {
      try await client.update(
        id: "cpu", patch: WidgetPatch(content: ContentPatch(label: "x"), clearing: [.label]))
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.violations.map(\.field) == ["clear_fields[0]"])
    await client.close()
  }

  @Test func manyTasksShareOneClient() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<64 {
        group.addTask {
          _ = try await client.put(id: "w\(index)", content: gaugeContent(Double(index)))
          let widget = try await client.get(id: "w\(index)")
          #expect(widget.content.template.mainValue == Double(index))
        }
      }
      try await group.waitForAll()
    }
    var count = 0
    for try await _ in client.list(pageSize: 10) { count += 1 }
    #expect(count == 64)
    await client.close()
  }
}
