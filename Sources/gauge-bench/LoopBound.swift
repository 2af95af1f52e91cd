import GaugeIO

/// A reference to state that lives on one event loop, carried by other
/// threads only to be handed back to that loop: `value` checks it is read
/// on the loop's thread.
//
// @unchecked Sendable: the only way to the wrapped object is `value`, which
// traps anywhere but on `loop`'s thread, so the object is never used from
// two threads.
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
  let loop: EventLoop
  private let wrapped: Value

  init(_ value: Value, on loop: EventLoop) {
    self.wrapped = value
    self.loop = loop
  }

  var value: Value {
    precondition(loop.inEventLoop, "a LoopBound value used off its loop")
    return wrapped
  }

  /// Runs `body` with the value on its loop, without waiting.
  func execute(_ body: @escaping @Sendable (Value) -> Void) {
    loop.execute { body(self.value) }
  }
}
