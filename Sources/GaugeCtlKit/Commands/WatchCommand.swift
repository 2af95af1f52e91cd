import GaugeIO
import Glibc
import Synchronization

/// `gaugectl watch [IDS...|--prefix P]`.
enum WatchCommand: Command {
  static let name = "watch"
  static let summary = "live view of widgets, full screen or as event lines"
  static let help = """
    Usage: gaugectl watch [ID...] [--prefix P] [options]

    Shows the widgets (all of them, the IDs given, or those whose id starts
    with P) and redraws as they change: each gauge as its style asks (a bar
    with its needle and bounds, or a circular arc), value and unit, label,
    subtitle, trend and accent colour, and how long ago it was updated. If
    the connection drops, the view says "reconnecting", keeps the last data
    marked stale, and resumes where it left off. q or Ctrl-C quits.

    Options:
      --once                 print one frame (or, with --events, the snapshot's
                             events) and exit
      --events               one line per event instead of the full screen:
                             upsert id=ID revision=R value=V, removed, synced,
                             reset; with --json, one JSON object per line
      --deltas               with --events: a change that set only a value is
                             one line, value id=ID revision=R value=V (the view
                             always asks the server for such value deltas)
      --interval DURATION    at most one event per widget this often (e.g. 250ms)
      --color auto|always|never
                             colour when the output is a terminal and NO_COLOR
                             is unset (auto, the default)

    Environment: COLUMNS and LINES fix the frame size; GAUGECTL_NOW_MS fixes the
    clock "updated ... ago" counts from (Unix milliseconds).
    """
  static let flags = WatchSettings.flags

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    let settings = try WatchSettings(
      arguments, json: options.json, environment: environment,
      stdoutIsTerminal: Syscall.isTerminal(fd: 1))

    // Every thread started from here on inherits the blocked mask, so only
    // this thread's sigwait sees these signals. The mask stays: the process
    // exits after watch, and a second Ctrl-C still queued must not kill it
    // with the terminal already restored and the exit code decided.
    // SIGUSR2, not SIGUSR1, wakes it: Swift's crash handler sends SIGUSR1 to
    // the other threads to take their backtraces, and this sigwait took it,
    // so a crash on the loop thread waited out the handler's 30 s timeout.
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGWINCH, SIGUSR2] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)

    let group: EventLoopGroup
    do {
      group = try EventLoopGroup(threads: 1)
    } catch {
      throw CLIError(.rejected, ["watch: cannot start: \(error)"])
    }
    let loop = group.loops[0]
    let outcome = Outcome()
    let holder = SessionHolder()
    loop.execute {
      let session = WatchSession(loop: loop, settings: settings, options: options) {
        code, error in
        outcome.set(code, error)
        // Wakes the sigwait below.
        kill(getpid(), SIGUSR2)
      }
      holder.session = session
      session.start()
    }
    group.start()

    var received: Int32 = 0
    waiting: while true {
      sigwait(&signals, &received)
      switch received {
      case SIGWINCH:
        loop.execute { holder.session?.resized() }
      case SIGUSR2:
        if outcome.isSet { break waiting }
      default:
        // Ctrl-C or a stop request: a clean exit, terminal restored.
        loop.execute { holder.session?.finish(.ok) }
      }
    }
    group.stopAndJoin()
    let (code, error) = outcome.get()
    if let error { throw error }
    return code
  }
}

/// How the session ended, handed from the loop thread to the main thread.
private final class Outcome: Sendable {
  private let state = Mutex<(code: ExitCode, error: CLIError?)?>(nil)

  func set(_ code: ExitCode, _ error: CLIError?) {
    state.withLock { if $0 == nil { $0 = (code, error) } }
  }

  var isSet: Bool { state.withLock { $0 != nil } }

  func get() -> (ExitCode, CLIError?) {
    state.withLock { $0 ?? (.ok, nil) }
  }
}

/// Keeps the session alive; touched only on the loop thread.
// @unchecked Sendable: the main thread passes it into `loop.execute`
// closures and never reads or writes `session` itself.
private final class SessionHolder: @unchecked Sendable {
  var session: WatchSession?
}
