import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

/// One `PublishValues` stream: each `ValueUpdate` is validated against its
/// widget's current bounds and applied in order; a bad item is counted and
/// reported on its own and the stream goes on. The summary is sent once
/// every accepted item is durable.
///
/// Items are applied a batch at a time: those that arrived together (one
/// DATA frame, up to a thousand or so) go to the store in one `setValues`,
/// which takes its lock and reads its clock once for all of them.
final class PublishValuesHandler: RPCHandler {
  private let call: ServerCall
  private let store: any WidgetStore
  /// The stream position of the next item.
  private var index: UInt64 = 0
  private var accepted: UInt64 = 0
  private var rejected: UInt64 = 0
  private var rejections: [PublishRejection] = []
  /// Decoded items not yet applied, the first at stream position
  /// `batchStart`; reused from batch to batch.
  private var batch: [ValueSet] = []
  private var batchStart: UInt64 = 0

  /// Rejections reported in the summary; the count covers all of them.
  static let reportedRejections = 100

  /// This loop's write counters, when the server keeps metrics.
  private let metrics: WriteMetrics?

  /// The token's write bucket, when it has one: values past it are
  /// rejected one by one and the stream goes on.
  private let allowance: WriteAllowance?

  init(call: ServerCall, store: any WidgetStore, allowance: WriteAllowance? = nil) {
    self.call = call
    self.store = store
    self.metrics = WriteMetrics.on(call.loopMetrics)
    self.allowance = allowance
  }

  func receive(message: [UInt8]) {
    message.withUnsafeBytes { receive(messageBytes: $0) }
  }

  func receive(messageBytes bytes: UnsafeRawBufferPointer) {
    defer { index += 1 }
    switch WireDecoding.decode(bytes, with: WidgetWire.decodeValueUpdate) {
    case .failure(let error):
      // Applied first, so that rejections stay in stream order.
      applyBatch()
      reject(at: index, id: "", .internal, "could not parse the ValueUpdate: \(error.message)")
    case .success(let update):
      guard let value = update.value else {
        applyBatch()
        return reject(at: index, id: update.id, .invalidArgument, "value: is required")
      }
      if batch.isEmpty { batchStart = index }
      batch.append(ValueSet(id: update.id, value: value))
    }
  }

  func receiveBatchEnd() {
    applyBatch()
  }

  private func applyBatch() {
    guard !batch.isEmpty else { return }
    if let allowance {
      let (admitted, retryAfter) = allowance.limiter.admitWrites(
        batch.count, key: allowance.key, rate: allowance.rate)
      if admitted < batch.count {
        let status = RateLimiter.exhausted(.writes, retryAfterNanoseconds: retryAfter)
        for offset in admitted..<batch.count {
          reject(at: batchStart + UInt64(offset), id: batch[offset].id, status.code, status.message)
        }
        batch.removeSubrange(admitted...)
        guard !batch.isEmpty else { return }
      }
    }
    let failures = store.setValues(batch)
    accepted += UInt64(batch.count - failures.count)
    metrics?.published("accepted", count: batch.count - failures.count)
    for failure in failures {
      metrics?.rejected(failure.error)
      let status = failure.error.grpcStatus
      reject(
        at: batchStart + UInt64(failure.offset), id: batch[failure.offset].id, status.code,
        status.message)
    }
    batch.removeAll(keepingCapacity: true)
  }

  func receiveEnd() {
    applyBatch()
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

  /// What arrived is applied, as it would have been item by item; no
  /// summary can follow.
  func cancel(_ reason: GRPCStatus) {
    applyBatch()
  }

  private func reject(at index: UInt64, id: String, _ code: GRPCStatus.Code, _ message: String) {
    rejected += 1
    metrics?.published(code.goName)
    guard rejections.count < Self.reportedRejections else { return }
    rejections.append(
      PublishRejection(index: index, id: id, code: code.rawValue, message: message))
  }
}
