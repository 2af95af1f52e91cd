/// How nghttp2's callbacks reach a session's delegate: through a class
/// whose subclass knows the delegate's concrete type, so that the
/// delegate is borrowed (`Unmanaged._withUnsafeGuaranteedRef`) rather than
/// retained and released, which an unowned existential costs on every
/// call, over a dozen times per unary call. The delegate owns the session,
/// and callbacks run only inside its calls into the session, so the
/// unretained reference is never used dangling.
///
/// This base answers as a session without a delegate does.
package class HTTP2SessionDelegateCaller {
  init() {}

  func streamBegan(_ streamID: Int32) {}
  func streamHeader(
    _ streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
  ) -> Bool { false }
  func streamHeadersEnded(_ streamID: Int32, endStream: Bool) {}
  func streamTrailersEnded(_ streamID: Int32, endStream: Bool) {}
  func streamData(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) {}
  func streamEnded(_ streamID: Int32) {}
  func streamClosed(_ streamID: Int32, errorCode: UInt32) {}
  /// nil: no delegate to ask, which fails the callback.
  func streamOutbound(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk?
  { nil }
  func streamEndSent(_ streamID: Int32) {}
  func headersSent() {}
  func settingsAcknowledged() {}
  func pingReceived() {}
  func pingAcknowledged(payload: UInt64) {}
}

/// Calls a delegate of a known type, unretained.
final class TypedHTTP2SessionDelegateCaller<Delegate: HTTP2SessionDelegate>:
  HTTP2SessionDelegateCaller
{
  private let delegate: Unmanaged<Delegate>

  init(_ delegate: Delegate) {
    self.delegate = .passUnretained(delegate)
  }

  override func streamBegan(_ streamID: Int32) {
    delegate._withUnsafeGuaranteedRef { $0.streamBegan(streamID) }
  }

  override func streamHeader(
    _ streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
  ) -> Bool {
    delegate._withUnsafeGuaranteedRef { $0.streamHeader(streamID, name: name, value: value) }
  }

  override func streamHeadersEnded(_ streamID: Int32, endStream: Bool) {
    delegate._withUnsafeGuaranteedRef { $0.streamHeadersEnded(streamID, endStream: endStream) }
  }

  override func streamTrailersEnded(_ streamID: Int32, endStream: Bool) {
    delegate._withUnsafeGuaranteedRef { $0.streamTrailersEnded(streamID, endStream: endStream) }
  }

  override func streamData(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
    delegate._withUnsafeGuaranteedRef { $0.streamData(streamID, bytes) }
  }

  override func streamEnded(_ streamID: Int32) {
    delegate._withUnsafeGuaranteedRef { $0.streamEnded(streamID) }
  }

  override func streamClosed(_ streamID: Int32, errorCode: UInt32) {
    delegate._withUnsafeGuaranteedRef { $0.streamClosed(streamID, errorCode: errorCode) }
  }

  override func streamOutbound(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk?
  {
    delegate._withUnsafeGuaranteedRef { $0.streamOutbound(streamID, into: buffer) }
  }

  override func streamEndSent(_ streamID: Int32) {
    delegate._withUnsafeGuaranteedRef { $0.streamEndSent(streamID) }
  }

  override func headersSent() {
    delegate._withUnsafeGuaranteedRef { $0.headersSent() }
  }

  override func settingsAcknowledged() {
    delegate._withUnsafeGuaranteedRef { $0.settingsAcknowledged() }
  }

  override func pingReceived() {
    delegate._withUnsafeGuaranteedRef { $0.pingReceived() }
  }

  override func pingAcknowledged(payload: UInt64) {
    delegate._withUnsafeGuaranteedRef { $0.pingAcknowledged(payload: payload) }
  }
}
