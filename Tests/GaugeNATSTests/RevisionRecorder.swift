import GaugeNATS
import Synchronization

/// Results of asynchronous puts in the order their completions ran.
final class RevisionRecorder: Sendable {
  private let state = Mutex<[Result<UInt64, NATSError>]>([])

  var record: @Sendable (Result<UInt64, NATSError>) -> Void {
    { result in self.state.withLock { $0.append(result) } }
  }

  var results: [Result<UInt64, NATSError>] { state.withLock { $0 } }
}
