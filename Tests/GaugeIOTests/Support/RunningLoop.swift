import GaugeIO

/// Runs `body` with a loop that is running on its own thread, and stops and joins it after.
func withRunningLoop<Result>(_ body: (EventLoop) async throws -> Result) async throws -> Result {
  let group = try EventLoopGroup(threads: 1)
  group.start()
  defer { group.stopAndJoin() }
  return try await body(group.loops[0])
}

/// Runs `body` on the loop thread and returns what it returned. Also serves as a barrier: once
/// it returns, every turn before the one that ran `body` has finished.
@discardableResult
func onLoop<Result: Sendable>(
  _ loop: EventLoop, _ body: @escaping @Sendable () throws -> Result
) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    loop.execute { continuation.resume(with: Swift.Result { try body() }) }
  }
}
