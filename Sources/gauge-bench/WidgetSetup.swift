import GRPCClient
import GaugeIO

/// Creates the `value` widgets a scenario works on, many calls in flight so
/// that a strict store commits them in groups.
enum WidgetSetup {
  static let inFlight = 64

  /// Creates bench-00000 ... on the first loop; throws the first failure.
  static func create(_ count: Int, loops: LoadLoops, rich: Bool = false) throws(BenchFailure) {
    let address = loops.address
    let configuration = loops.configuration
    let tally: Result<UnaryTally, BenchFailure> = loops.run(on: loops.loops[0]) { loop, done in
      let channel: GRPCChannel
      do {
        channel = try LoadLoops.connect(1, to: address, on: loop, configuration: configuration)[0]
      } catch {
        return done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
      var next = 0
      _ = ClosedLoopUnary(
        channels: [channel], inFlight: inFlight, path: BenchRequests.putWidget,
        window: MeasureWindow(),
        nextRequest: {
          guard next < count else { return nil }
          defer { next += 1 }
          let id = BenchRequests.widgetID(next)
          return rich ? BenchRequests.putRichGauge(id: id) : BenchRequests.putValueWidget(id: id)
        },
        done: { tally in
          channel.close()
          done(.success(tally))
        })
    }
    let result = try tally.get()
    guard result.failed == 0, result.completed == UInt64(count) else {
      throw BenchFailure(
        "creating \(count) widgets: \(result.completed) created, \(result.failed) failed"
          + (result.firstFailure.map { " (\($0))" } ?? ""))
    }
  }
}

/// Why a scenario could not run; printed on stderr, exit status 1.
struct BenchFailure: Error, Sendable, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
