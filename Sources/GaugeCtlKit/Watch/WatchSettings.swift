/// What `gaugectl watch` was asked to do.
struct WatchSettings: Sendable {
  enum Output: Sendable, Equatable {
    /// The live full-screen view (output is a terminal).
    case screen
    /// A plain frame each time the view changes (output is not a terminal).
    case frames
    /// One line per event.
    case events
  }

  var ids: [String]
  var prefix: String
  var minIntervalMs: UInt32
  var output: Output
  /// Stop after the first `synced`: one frame, or the snapshot's events.
  var once: Bool
  var json: Bool
  /// Ask for value deltas: always for the views, which apply them; for
  /// `--events` only with `--deltas`, so that event lines stay whole
  /// widgets unless asked.
  var valueDeltas: Bool
  var colorMode: ColorMode
  var clock: WallClock
  var environment: [String: String]

  static let flags: [FlagSpec] = [
    FlagSpec("prefix"), .toggle("once"), .toggle("events"), .toggle("deltas"),
    FlagSpec("interval"), FlagSpec("color"),
  ]

  init(
    _ arguments: Arguments, json: Bool, environment: [String: String], stdoutIsTerminal: Bool
  ) throws(CLIError) {
    ids = arguments.positionals
    prefix = arguments.value("prefix") ?? ""
    if !ids.isEmpty, !prefix.isEmpty {
      throw .usage("watch takes IDs or --prefix, not both")
    }
    minIntervalMs = 0
    if let text = arguments.value("interval") {
      guard let duration = DurationText.parse(text) else {
        throw .usage("--interval: \"\(text)\" is not a duration like 250ms or 1s")
      }
      let (seconds, attoseconds) = duration.components
      minIntervalMs = UInt32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000, 3_600_000))
    }
    once = arguments.has("once")
    self.json = json
    if arguments.has("events") {
      output = .events
      valueDeltas = arguments.has("deltas")
    } else {
      if json { throw .usage("--json goes with --events") }
      if arguments.has("deltas") { throw .usage("--deltas goes with --events") }
      output = stdoutIsTerminal && !once ? .screen : .frames
      valueDeltas = true
    }
    switch arguments.value("color") ?? "auto" {
    case "auto":
      colorMode = ColorMode.detect(environment: environment, isTerminal: stdoutIsTerminal)
    case "always":
      let detected = ColorMode.detect(
        environment: environment.filter { $0.key != "NO_COLOR" }, isTerminal: true)
      colorMode = detected
    case "never":
      colorMode = .plain
    case let other:
      throw .usage("--color: \"\(other)\" is not auto, always or never")
    }
    clock = WallClock(environment: environment)
    self.environment = environment
  }
}
