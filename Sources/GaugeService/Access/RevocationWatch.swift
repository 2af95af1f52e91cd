import GRPCCore
import GaugeAuth

/// Ends a live stream (a subscription, an event stream) when the token it
/// was opened with is revoked: the registry calls back on whatever thread
/// revoked it, and `end` runs on the stream's loop. Dropping the watch (or
/// `cancel`) stops it.
final class RevocationWatch: Sendable {
  private let registry: TokenRegistry
  private let name: String
  private let id: UInt64?

  /// nil when the token is already gone.
  init?(
    registry: TokenRegistry, name: String, executor: any LoopExecutor,
    end: LoopBound<() -> Void>
  ) {
    self.registry = registry
    self.name = name
    self.id = registry.watch(name: name) {
      executor.execute { end.value() }
    }
    if id == nil { return nil }
  }

  deinit {
    if let id { registry.unwatch(name: name, id: id) }
  }
}

/// A loop-bound value carried across threads only to be used back on its
/// loop.
// @unchecked Sendable: whoever makes one hands it only to closures that
// hop to the value's loop (`LoopExecutor.execute`) before touching it.
struct LoopBound<Value>: @unchecked Sendable {
  let value: Value
}
