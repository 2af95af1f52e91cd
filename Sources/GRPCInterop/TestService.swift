import GRPCCore
import GRPCTransport
import Glibc

/// `grpc.testing.TestService` as grpc's `doc/interop-test-descriptions.md`
/// describes the server: EmptyCall, UnaryCall, CacheableUnaryCall,
/// StreamingOutputCall, StreamingInputCall, FullDuplexCall and
/// HalfDuplexCall, with compressed requests and responses, echoed status
/// and echoed metadata. UnimplementedCall is left unimplemented on purpose.
///
/// Responses go out compressed only where a request asks for it
/// (`response_compressed`, `ResponseParameters.compressed`), and only when
/// the call negotiated gzip.
public struct TestService: GRPCService {
  public let serviceName = "grpc.testing.TestService"
  public let methodNames = [
    "EmptyCall", "UnaryCall", "CacheableUnaryCall", "StreamingOutputCall", "StreamingInputCall",
    "FullDuplexCall", "HalfDuplexCall",
  ]
  /// Filled into SimpleResponse.server_id when a request asks for it.
  private let serverID: String

  public init(serverID: String = "gauged-interop-server") {
    self.serverID = serverID
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "EmptyCall":
      let echo = MetadataEcho(call.metadata)
      echo.start(call)
      return SingleRequestHandler(call: call) { request, _ in
        guard InteropWire.isEmpty(request) else {
          return echo.finish(call, GRPCStatus(.internal, "could not parse the Empty request"))
        }
        call.send(message: [], compress: false)
        echo.finish(call, .ok)
      }
    case "UnaryCall":
      let echo = MetadataEcho(call.metadata)
      echo.start(call)
      let serverID = self.serverID
      return SingleRequestHandler(call: call) { bytes, compressed in
        guard let request = InteropWire.decodeSimpleRequest(bytes) else {
          return echo.finish(call, GRPCStatus(.internal, "could not parse the SimpleRequest"))
        }
        if let status = Self.check(request, compressed: compressed) {
          return echo.finish(call, status)
        }
        call.send(
          message: InteropWire.encodeSimpleResponse(
            payloadSize: Int(request.responseSize),
            serverID: request.fillServerID ? serverID : nil),
          compress: request.responseCompressed == true)
        echo.finish(call, .ok)
      }
    case "CacheableUnaryCall":
      return SingleRequestHandler(call: call) { bytes, _ in
        guard InteropWire.decodeSimpleRequest(bytes) != nil else {
          return call.finish(GRPCStatus(.internal, "could not parse the SimpleRequest"))
        }
        // A proxy may keep the answer for a minute; the payload is the time
        // now, so a cached answer is recognisable.
        call.sendInitialMetadata(["cache-control": .text("max-age=60, public")])
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        call.send(
          message: InteropWire.encodeSimpleResponse(
            payloadSize: 0, body: Array(String(nanoseconds).utf8), serverID: nil),
          compress: false)
        call.finish(.ok)
      }
    case "StreamingOutputCall":
      return streamingOutput(call)
    case "StreamingInputCall":
      return StreamingInputHandler(call: call)
    case "FullDuplexCall":
      return DuplexHandler(call: call, holdUntilHalfClose: false)
    case "HalfDuplexCall":
      return DuplexHandler(call: call, holdUntilHalfClose: true)
    default:
      return nil
    }
  }

  private static func check(_ request: SimpleRequest, compressed: Bool) -> GRPCStatus? {
    if let status = RequestRules.echoedStatus(request.responseStatus) { return status }
    if let status = RequestRules.checkCompression(
      expected: request.expectCompressed, actual: compressed, field: "expect_compressed")
    {
      return status
    }
    if let status = RequestRules.checkResponseType(request.responseType) { return status }
    return RequestRules.checkSize(request.responseSize, field: "response_size")
  }

  private func streamingOutput(_ call: ServerCall) -> RPCHandler {
    let echo = MetadataEcho(call.metadata)
    echo.start(call)
    let responses = ResponseStream(call: call)
    let handler = SingleRequestHandler(call: call) { bytes, _ in
      guard let request = InteropWire.decodeStreamingOutputCallRequest(bytes) else {
        return echo.finish(
          call, GRPCStatus(.internal, "could not parse the StreamingOutputCallRequest"))
      }
      if let status = RequestRules.echoedStatus(request.responseStatus)
        ?? RequestRules.checkResponseType(request.responseType)
      {
        return echo.finish(call, status)
      }
      for (index, parameters) in request.responseParameters.enumerated() {
        if let status = RequestRules.checkSize(
          parameters.size, field: "response_parameters[\(index)].size")
        {
          return echo.finish(call, status)
        }
      }
      responses.whenIdle = {
        responses.stop()
        echo.finish(call, .ok)
      }
      responses.append(request.responseParameters)
    }
    handler.whenCancelled { responses.stop() }
    return handler
  }
}
