import CNGHTTP2

/// One event loop's outbound frame buffer, shared by the nghttp2 sessions
/// of that loop (see `gauged_nghttp2_session_new`): libnghttp2 otherwise
/// gives every connection its own 16 KiB, most of an idle connection's
/// memory. A session writes into it only inside `drainOutput`, which copies
/// each frame out before returning, and sessions of one loop never send
/// from inside each other's callbacks; `beginUse` checks that.
public final class SharedFrameBuffer {
  let bytes: UnsafeMutableRawPointer
  private var inUse = false

  public init() {
    bytes = .allocate(
      byteCount: Int(GAUGED_NGHTTP2_FRAME_BUFFER_SIZE), alignment: 16)
  }

  deinit {
    bytes.deallocate()
  }

  func beginUse() {
    precondition(!inUse, "two nghttp2 sessions of one loop are sending at once")
    inUse = true
  }

  func endUse() {
    inUse = false
  }
}
