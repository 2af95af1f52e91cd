import GRPCTransport
import GaugeDomain
import GaugeWire

/// One `PublishValues` stream: each `ValueUpdate` is validated against its
/// widget's current bounds and applied in order; a bad item is counted and
/// reported on its own and the stream goes on. The summary is sent once
/// every accepted item is durable.
final class PublishValuesHandler: RPCHandler {
  private let call: ServerCall
  private let store: any WidgetStore
  private var index: UInt64 = 0
  private var accepted: UInt64 = 0
  private var rejected: UInt64 = 0
  private var rejections: [PublishRejection] = []

  /// Rejections reported in the summary; the count covers all of them.
  static let reportedRejections = 100

  init(call: ServerCall, store: any WidgetStore) {
    self.call = call
    self.store = store
  }

  func receive(message: [UInt8]) {
    defer { index += 1 }
    switch WireDecoding.decode(message, with: WidgetWire.decodeValueUpdate) {
    case .failure(let error):
      reject(id: "", .internal, "could not parse the ValueUpdate: \(error.message)")
    case .success(let update):
      guard let value = update.value else {
        return reject(id: update.id, .invalidArgument, "value: is required")
      }
      do throws(WidgetError) {
        _ = try store.setValue(value, id: update.id)
        accepted += 1
      } catch {
        let status = error.grpcStatus
        reject(id: update.id, status.code, status.message)
      }
    }
  }

  func receiveEnd() {
    let call = self.call
    let summary = WidgetWire.encodePublishSummary(
      accepted: accepted, rejected: rejected, rejections: rejections)
    let accepted = self.accepted
    store.whenDurable { result in
      call.onLoop {
        switch result {
        case .success:
          call.send(message: summary)
          call.finish(.ok)
        case .failure(let error):
          call.finish(
            GRPCStatus(
              .unavailable, "\(accepted) accepted updates are not durable: \(error.message)"))
        }
      }
    }
  }

  func cancel(_ reason: GRPCStatus) {}

  private func reject(id: String, _ code: GRPCStatus.Code, _ message: String) {
    rejected += 1
    guard rejections.count < Self.reportedRejections else { return }
    rejections.append(
      PublishRejection(index: index, id: id, code: code.rawValue, message: message))
  }
}
