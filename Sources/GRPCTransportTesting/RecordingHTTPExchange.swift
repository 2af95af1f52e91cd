import GRPCCore
import GRPCTransport

/// An exchange that keeps every answer a face gave, for faces that answer
/// whole responses (REST) driven in memory; its scheduler is a
/// `ManualScheduler`. A stream started here counts as an answer too, so a
/// face that streams where it should not shows up as one answer too many.
public final class RecordingHTTPExchange: HTTPExchange {
  public private(set) var responses: [HTTPResponse] = []
  public let scheduler: any CallScheduler = ManualScheduler()
  public var onOutboundDrained: (() -> Void)?
  public var onCancel: (() -> Void)?
  public var pendingOutboundBytes: Int { 0 }
  public var isFinished: Bool { !responses.isEmpty }

  public init() {}

  public func respond(_ response: HTTPResponse) {
    responses.append(response)
  }

  public func startStream(status: Int, headers: HTTPFields) {
    responses.append(HTTPResponse(status: status, headers: headers))
  }

  public func write(_ bytes: [UInt8]) {}
  public func finish() {}
}
