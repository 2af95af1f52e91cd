import GRPCCore
import GRPCTransport

/// An exchange that keeps every answer a face gave, driven in memory; its
/// scheduler is a `ManualScheduler`. A stream started here counts as an
/// answer too, so a face that streams where it should not shows up as one
/// answer too many; the stream's body is kept in `streamed`. A test plays
/// the socket: it sets `pendingOutboundBytes` to hold output back, then
/// `drain()`s it, or `cancel()`s as a peer that leaves.
public final class RecordingHTTPExchange: HTTPExchange {
  public private(set) var responses: [HTTPResponse] = []
  /// The body bytes written to a started stream, in order.
  public private(set) var streamed: [UInt8] = []
  public private(set) var streamFinished = false
  public let scheduler: any CallScheduler
  public var onOutboundDrained: (() -> Void)?
  public var onCancel: (() -> Void)?
  public var pendingOutboundBytes = 0
  public var isFinished: Bool { !responses.isEmpty }

  public init(scheduler: any CallScheduler = ManualScheduler()) {
    self.scheduler = scheduler
  }

  public func respond(_ response: HTTPResponse) {
    responses.append(response)
  }

  public func startStream(status: Int, headers: HTTPFields) {
    responses.append(HTTPResponse(status: status, headers: headers))
  }

  public func write(_ bytes: [UInt8]) {
    streamed += bytes
  }

  public func finish() {
    streamFinished = true
  }

  /// The socket took everything.
  public func drain() {
    pendingOutboundBytes = 0
    onOutboundDrained?()
  }

  /// The peer is gone.
  public func cancel() {
    onCancel?()
  }
}
