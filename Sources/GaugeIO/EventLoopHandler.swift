/// Receives readiness for one registered descriptor. Called on the loop thread only.
///
/// Registration is level-triggered: a callback repeats every loop turn for as long as the
/// condition holds, so a handler that cannot make progress should change its interest.
public protocol EventLoopHandler: AnyObject {
  /// Bytes (or, for a listening socket, connections) are waiting, or the peer sent EOF.
  func readable()
  /// The send buffer has room again.
  func writable()
  /// The connection failed (`EPOLLERR`), both directions are shut (`EPOLLHUP`), or the peer
  /// shut down its sending side (`EPOLLRDHUP`). `readable()` runs first in the same turn when
  /// input is pending so nothing the peer sent before leaving is lost. Level-triggered: this
  /// repeats every turn until the handler deregisters the descriptor.
  func hangup()
}
