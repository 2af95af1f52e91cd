import GRPCCore
import GRPCTransport

/// One Watch call: the status now, then each change. A slow reader never
/// piles up updates: a status is sent only when nothing is queued on the
/// stream, and what is sent is the status at that moment, so the latest
/// value wins and at most one message waits.
// @unchecked Sendable: other threads only call `statusChanged`, which hops
// to the call's loop; every other member is used on that loop.
final class HealthWatchHandler: RPCHandler, @unchecked Sendable {
  private let call: ServerCall
  private let health: HealthService
  private var service: String?
  private var requests = 0
  private var watching = false
  private var lastSent: ServingStatus?

  init(call: ServerCall, health: HealthService) {
    self.call = call
    self.health = health
  }

  func receive(message: [UInt8]) {
    requests += 1
    service = HealthWire.decodeRequest(message)
  }

  func receiveEnd() {
    guard requests == 1 else {
      return call.finish(
        GRPCStatus(.unimplemented, "Watch takes exactly one request, got \(requests)"))
    }
    guard let service else {
      return call.finish(GRPCStatus(.internal, "could not parse the HealthCheckRequest"))
    }
    watching = true
    health.addWatcher(self, for: service)
    call.onOutboundDrained = { [weak self] in self?.sendIfChanged() }
    sendIfChanged()
  }

  func cancel(_ reason: GRPCStatus) {
    stopWatching()
  }

  /// From any thread.
  func statusChanged() {
    call.execute { [self] in sendIfChanged() }
  }

  private func sendIfChanged() {
    guard watching, let service, !call.isFinished else { return stopWatching() }
    let status = health.status(for: service) ?? .serviceUnknown
    guard status != lastSent, call.pendingOutboundBytes == 0 else { return }
    lastSent = status
    call.send(message: HealthWire.encodeResponse(status))
  }

  private func stopWatching() {
    guard watching, let service else { return }
    watching = false
    call.onOutboundDrained = nil
    health.removeWatcher(self, for: service)
  }
}
