import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

/// One unary `WidgetService` call (put, update, get, list, delete). The
/// request is decoded as it arrives, in place when it came whole in one
/// DATA frame; once the client half-closes, the store answers, and a write
/// is acknowledged only when it is as durable as the store promises.
///
/// One object per call, and no closures: the method says how to decode
/// and what to do, and a store that has already settled durability
/// (memory, relaxed) is answered without a callback.
final class WidgetUnaryHandler: RPCHandler {
  private let call: ServerCall
  private let store: any WidgetStore
  private let method: UnaryMethod
  /// Decoded on arrival; a decoding failure is reported at the end, after
  /// the message count is known to be right.
  private var request = UnaryRequest<Result<UnaryMethod.Request, WireError>>()

  init(call: ServerCall, store: any WidgetStore, method: UnaryMethod) {
    self.call = call
    self.store = store
    self.method = method
  }

  func receive(message: [UInt8]) {
    message.withUnsafeBytes { receive(messageBytes: $0) }
  }

  func receive(messageBytes bytes: UnsafeRawBufferPointer) {
    // A closure, not `method.decode`: the partially applied method was a
    // heap-allocated context on every call.
    let method = self.method
    request.receive {
      WireDecoding.decode(bytes) { bytes throws(WireError) in try method.decode(bytes) }
    }
  }

  func receiveEnd() {
    switch request.takeCompleted() {
    case .failure(let status):
      call.finish(status)
    case .success(.failure(let error)):
      call.finish(
        GRPCStatus(.internal, "could not parse the \(call.method) request: \(error.message)"))
    case .success(.success(let request)):
      let response: UnaryMethod.Response
      do throws(WidgetError) {
        response = try method.perform(request, on: store)
      } catch {
        if method.isWrite { WriteMetrics.on(call.loopMetrics)?.rejected(error) }
        return call.finish(error.grpcStatus)
      }
      guard method.isWrite else {
        return UnaryResponder.complete(call, with: .success(()), sending: { response.send(on: $0) })
      }
      if let settled = store.durabilityIfSettled {
        return UnaryResponder.complete(
          call, with: settled.mapError(\.grpcStatus), sending: { response.send(on: $0) })
      }
      let call = self.call
      store.whenDurable { durable in
        call.onLoop {
          UnaryResponder.complete(
            call, with: durable.mapError(\.grpcStatus), sending: { response.send(on: $0) })
        }
      }
    }
  }

  func cancel(_ reason: GRPCStatus) {}
}
