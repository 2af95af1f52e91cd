/// Identifies a timer scheduled on an `EventLoop`, for cancelling it.
public struct TimerHandle: Hashable, Sendable {
  let id: UInt64
}
