/// A header block being received. HTTP/2 sends a block's frames back to
/// back, so a connection receives one block at a time; it borrows this
/// from its `ConnectionGroup` for the length of the block, and a stream
/// keeps none of it past dispatch. An idle connection or subscription then
/// carries no `RequestHead`, which is over a hundred bytes.
final class IncomingHeaderBlock {
  var head = RequestHead()
  /// The stream the block belongs to (0: none).
  private(set) var streamID: Int32 = 0
  /// False while `head` is known to be empty (new, or cleared when given
  /// back), so that borrowing the block does not empty it a second time.
  private var mayHoldHeaders = false

  /// Starts collecting the block of `streamID`.
  func begin(streamID: Int32) {
    if mayHoldHeaders { head.reset() }
    mayHoldHeaders = true
    self.streamID = streamID
  }

  func clear() {
    head.reset()
    mayHoldHeaders = false
    streamID = 0
  }
}
