import GRPCCore
import GRPCTransport
import GaugeAuth

/// A streaming call made with a token: when the token is revoked, the call
/// ends with UNAUTHENTICATED and its handler is cancelled, as if the client
/// had gone. It holds its place among the token's subscriptions (`slot`)
/// for as long as it lives. Every other event passes straight to the
/// handler.
final class RevocableHandler: RPCHandler {
  private let inner: RPCHandler
  private var watch: RevocationWatch?
  private var slot: SubscriptionSlot?

  /// `tokenName` nil: a caller without a token, whose call holds only its
  /// place among its address's subscriptions.
  init(
    _ inner: RPCHandler, call: ServerCall, registry: TokenRegistry, tokenName: String?,
    slot: SubscriptionSlot?
  ) {
    self.inner = inner
    self.slot = slot
    guard let tokenName, let executor = call.loopExecutor else { return }
    let revoked = LoopBound<() -> Void> { [weak self, weak call] in
      guard let self, let call, !call.isFinished else { return }
      let status = GRPCStatus(.unauthenticated, "the token \"\(tokenName)\" was revoked")
      call.finish(status)
      self.cancel(status)
    }
    watch = RevocationWatch(
      registry: registry, name: tokenName, executor: executor, end: revoked)
    if watch == nil {
      // Revoked between the check and now.
      call.finish(GRPCStatus(.unauthenticated, "the token \"\(tokenName)\" was revoked"))
    }
  }

  func receive(message: [UInt8]) { inner.receive(message: message) }
  func receive(message: [UInt8], compressed: Bool) {
    inner.receive(message: message, compressed: compressed)
  }
  func receive(messageBytes bytes: UnsafeRawBufferPointer) { inner.receive(messageBytes: bytes) }
  func receiveBatchEnd() { inner.receiveBatchEnd() }
  func receiveEnd() { inner.receiveEnd() }
  func serverShutdownBegan() { inner.serverShutdownBegan() }

  func cancel(_ reason: GRPCStatus) {
    watch = nil
    slot = nil
    inner.cancel(reason)
  }
}
