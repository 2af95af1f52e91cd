import GRPCCore
import GaugeIO
import Synchronization

/// A call whose request messages come one by one from a blocking thread,
/// with backpressure: `send` waits while `window` messages are still queued
/// on the connection, so a fast producer cannot outrun HTTP/2 flow control
/// with unbounded memory.
public final class BlockingRequestStream: Sendable {
  private let loop: EventLoop
  private let box: CallBox
  private let credits: Semaphore
  private let done = Completion<ClientResponse>()
  private let state = Mutex(ProducerState())

  private struct ProducerState {
    var closed = false
  }

  /// Messages that may wait on the connection before `send` blocks.
  public static let window: UInt32 = 1024

  init(loop: EventLoop, box: ChannelBox, path: String, metadata: Metadata, timeout: Duration?) {
    self.loop = loop
    self.credits = Semaphore(value: Self.window)
    let callBox = CallBox()
    self.box = callBox
    let credits = self.credits
    let done = self.done
    loop.execute {
      let handler = StreamingHandler(credits: credits, window: Self.window, done: done)
      callBox.handler = handler
      callBox.call = box.channel.makeCall(
        path: path, metadata: metadata, timeout: timeout, handler: handler)
    }
  }

  /// Queues one message, waiting for room first. False once the call has
  /// ended (the server answered early, or the connection was lost); call
  /// `finish()` for the status.
  @discardableResult
  public func send(_ message: [UInt8]) -> Bool {
    guard !isEnded else { return false }
    credits.wait()
    guard !isEnded else { return false }
    let box = self.box
    loop.execute {
      guard let call = box.call, !call.isFinished else { return }
      call.send(message)
      box.handler?.queued += 1
    }
    return true
  }

  /// True once the response is complete.
  public var isEnded: Bool { done.isFulfilled }

  /// Ends the request and waits for the response.
  public func finish() -> ClientResponse {
    let alreadyClosed = state.withLock { state in
      defer { state.closed = true }
      return state.closed
    }
    if !alreadyClosed {
      let box = self.box
      loop.execute { box.call?.closeSend() }
    }
    return done.wait()
  }

  /// Cancels the call and waits for it to end.
  public func cancel() -> ClientResponse {
    let box = self.box
    loop.execute { box.call?.cancel() }
    return done.wait()
  }
}

/// Counts messages handed to the connection and gives their credits back
/// once HTTP/2 has taken every one of them.
private final class StreamingHandler: ClientCallHandler {
  private let credits: Semaphore
  private let window: UInt32
  private let done: Completion<ClientResponse>
  private var response = ClientResponse(status: .ok)
  /// Messages queued on the call whose credits are still out.
  var queued: UInt32 = 0

  init(credits: Semaphore, window: UInt32, done: Completion<ClientResponse>) {
    self.credits = credits
    self.window = window
    self.done = done
  }

  func readyForMoreMessages() {
    releaseCredits()
  }

  func received(headers: Metadata) {
    response.headers = headers
  }

  func received(message: [UInt8]) {
    response.messages.append(message)
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    response.status = status
    response.trailers = trailers
    done.fulfil(response)
    // A producer blocked in `send` wakes up and sees the call ended.
    for _ in 0..<window { credits.signal() }
  }

  private func releaseCredits() {
    for _ in 0..<queued { credits.signal() }
    queued = 0
  }
}

/// The call and its handler, reached only on the loop thread.
// @unchecked Sendable: producer threads carry it into `loop.execute`
// closures and never touch its fields themselves.
private final class CallBox: @unchecked Sendable {
  var call: ClientCall?
  var handler: StreamingHandler?
}
