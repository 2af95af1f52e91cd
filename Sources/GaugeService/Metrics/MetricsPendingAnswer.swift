import GRPCCore
import GRPCTransport

/// A scrape's answer, ready on whichever loop finished collecting.
///
/// @unchecked Sendable: the exchange is loop-bound; other threads only call
/// `scheduler.execute`, which the `CallScheduler` contract allows from any
/// thread, and the exchange is touched only inside the work it runs on the
/// exchange's own loop.
final class MetricsPendingAnswer: @unchecked Sendable {
  private let exchange: any HTTPExchange
  private let scheduler: any CallScheduler

  init(_ exchange: any HTTPExchange) {
    self.exchange = exchange
    self.scheduler = exchange.scheduler
  }

  func respond(_ response: HTTPResponse) {
    scheduler.execute { [self] in exchange.respond(response) }
  }
}
