/// How much a client may send ahead of what the server has read.
///
/// A stream's receive window is 1 MiB, so a producer far from the server
/// keeps its pipe full. But while the loop reads this connection in small
/// bites because deliveries wait (`ReadBudget`), everything the window lets
/// a producer queue waits too, and each value reaches subscribers that much
/// later: with 1,000 subscribers and a producer at full speed, values were
/// 70-76 ms old at the median (1.1 s with 10,000 subscribers). While limited,
/// each stream's window is 64 KiB: values queue for milliseconds (7 ms at
/// the median), and the producer is held back by flow control as it would
/// be by a slower server.
extension GRPCServerConnection {
  static let limitedReceiveWindow: UInt32 = 64 << 10

  /// Limits (or restores) the receive window of every stream, now and for
  /// streams opened until the next call.
  package func limitInboundBacklog(_ limited: Bool) {
    guard limited != inboundBacklogLimited else { return }
    inboundBacklogLimited = limited
    setReceiveWindows(limited ? Self.limitedReceiveWindow : session.initialWindowSize)
    // Restoring the window may have queued WINDOW_UPDATEs.
    if !limited { outputReady() }
  }

  package func settingsAcknowledged() {
    if inboundBacklogLimited { setReceiveWindows(Self.limitedReceiveWindow) }
  }

  private func setReceiveWindows(_ window: UInt32) {
    for stream in streams.values where !session.isRemoteClosed(streamID: stream.id) {
      session.setReceiveWindow(streamID: stream.id, bytes: window)
    }
  }
}
