import GaugeIO
import Glibc
import Testing

@Suite struct ExecuteTests {
  @Test func executeRunsOnTheLoopThread() async throws {
    try await withRunningLoop { loop in
      #expect(!loop.inEventLoop)
      let ranOnLoop = try await onLoop(loop) { loop.inEventLoop }
      #expect(ranOnLoop)
    }
  }

  @Test func tasksFromManyThreadsAllRunInEachSubmittersOrder() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      let producers = 4
      let tasksPerProducer = 250
      await withTaskGroup(of: Void.self) { group in
        for producer in 0..<producers {
          group.addTask {
            for index in 0..<tasksPerProducer {
              loop.execute { log.record("\(producer) \(index) \(loop.inEventLoop)") }
            }
          }
        }
      }
      let lines = await log.wait(forCount: producers * tasksPerProducer)
      #expect(lines.count == producers * tasksPerProducer)
      #expect(lines.allSatisfy { $0.hasSuffix(" true") })
      for producer in 0..<producers {
        let indices = lines.map { $0.split(separator: " ") }
          .filter { $0[0] == "\(producer)" }
          .map { Int($0[1])! }
        #expect(indices == Array(0..<tasksPerProducer))
      }
    }
  }

  @Test func workQueuedByATaskRunsOnALaterTurn() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        loop.execute { log.record("queued from the loop") }
        loop.afterTurn { log.record("end of the first turn") }
      }
      let lines = await log.wait(forCount: 2)
      #expect(lines == ["end of the first turn", "queued from the loop"])
    }
  }
}
