import GRPCCore
import GRPCTransport
import GaugeDomain

/// A response waiting for the store to make a write durable, which may be
/// reported on any thread.
///
/// @unchecked Sendable: the exchange is loop-bound; other threads only call
/// `scheduler.execute`, which the `CallScheduler` contract allows from any
/// thread, and the exchange is touched only inside the work it runs on
/// the exchange's own loop.
final class RESTPendingAnswer: @unchecked Sendable {
  private let exchange: any HTTPExchange
  private let scheduler: any CallScheduler
  private let response: HTTPResponse

  init(_ response: HTTPResponse, exchange: any HTTPExchange) {
    self.exchange = exchange
    self.scheduler = exchange.scheduler
    self.response = response
  }

  /// Answers on the exchange's loop: the response once durable, 503 if not.
  func settle(_ durability: Result<Void, WidgetError>) {
    scheduler.execute { [self] in
      switch durability {
      case .success: exchange.respond(response)
      case .failure(let error): exchange.respond(RESTProblem(503, error.message).details.response)
      }
    }
  }
}
