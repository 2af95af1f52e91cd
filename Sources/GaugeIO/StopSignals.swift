import Glibc

/// SIGTERM and SIGINT (and any other signal asked for, as SIGHUP for a
/// reload), for a server's main thread to wait on. `block()`
/// must run before any other thread exists, so that every thread inherits
/// the mask and only `wait()` sees the signals. SIGPIPE is ignored as well:
/// a peer that went away is an EPIPE, not a dead process.
public struct StopSignals: Sendable {
  private let signals: sigset_t

  public static func block(alsoWaitingFor others: [Int32] = []) -> StopSignals {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    for other in others { sigaddset(&signals, other) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    signal(SIGPIPE, SIG_IGN)
    return StopSignals(signals: signals)
  }

  /// Blocks until one of the signals arrives; returns its number.
  public func wait() -> Int32 {
    var signals = self.signals
    var received: Int32 = 0
    sigwait(&signals, &received)
    return received
  }

  /// Waits for one of the signals for at most `timeout`: its number, or
  /// nil when none came. Lets start-up back-offs end on a stop signal.
  public func wait(atMost timeout: Duration) -> Int32? {
    var signals = self.signals
    let (seconds, attoseconds) = timeout.components
    var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    while true {
      let received = sigtimedwait(&signals, nil, &interval)
      if received >= 0 { return received }
      // EINTR: another signal's handler ran; the wait is short, so it
      // starts over rather than tracking what is left.
      if errno != EINTR { return nil }
    }
  }
}
