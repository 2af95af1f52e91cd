import GRPCClient
import GRPCCore
import GaugeIO
import GaugeWire

/// `gaugectl watch` at work, on its event loop: one Subscribe call kept
/// alive across lost connections (resuming from the last `synced`
/// revision), the model it feeds, and whatever shows it (the full screen,
/// plain frames, or event lines).
final class WatchSession {
  private let loop: EventLoop
  private let settings: WatchSettings
  private let options: GlobalOptions
  private let palette: Palette
  private let onFinish: (ExitCode, CLIError?) -> Void

  private var model = WatchModel()
  private var channel: GRPCChannel?
  private var call: ClientCall?
  private var screen: TerminalScreen?
  private var keyboard: KeyboardInput?
  private var outputWatch: OutputClosedWatch?
  private var reconnectTimer: TimerHandle?
  private var tickTimer: TimerHandle?
  /// From connecting until the server's first event: a peer that takes
  /// the connection and says nothing counts as lost after --timeout.
  private var answerTimer: TimerHandle?
  private var redrawScheduled = false
  private var lastFrame: [ScreenLine]?
  private var finished = false

  static let subscribePath = "/gauge.v1.WidgetService/Subscribe"

  init(
    loop: EventLoop, settings: WatchSettings, options: GlobalOptions,
    onFinish: @escaping (ExitCode, CLIError?) -> Void
  ) {
    self.loop = loop
    self.settings = settings
    self.options = options
    self.palette = Palette(settings.colorMode)
    self.onFinish = onFinish
  }

  func start() {
    if settings.output == .screen {
      let screen = TerminalScreen(palette: palette)
      screen.enter()
      self.screen = screen
      if Syscall.isTerminal(fd: 0) {
        let keyboard = KeyboardInput(loop: loop) { [weak self] key in
          if key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") { self?.finish(.ok) }
        }
        keyboard.start()
        self.keyboard = keyboard
      }
      tick()
    } else {
      let outputWatch = OutputClosedWatch(loop: loop) { [weak self] in self?.finish(.ok) }
      outputWatch.start()
      self.outputWatch = outputWatch
    }
    connect()
  }

  /// The terminal changed size (SIGWINCH).
  func resized() {
    changed()
  }

  /// Ends the session: the terminal is restored before anything else.
  func finish(_ code: ExitCode, _ error: CLIError? = nil) {
    guard !finished else { return }
    finished = true
    reconnectTimer.map { loop.cancel($0) }
    tickTimer.map { loop.cancel($0) }
    stopWaitingForAnswer()
    keyboard?.stop()
    outputWatch?.stop()
    screen?.leave()
    call?.cancel()
    channel?.close(GRPCStatus(.cancelled, "watch ended"))
    onFinish(code, error)
  }

  // MARK: The subscription

  private func connect() {
    reconnectTimer = nil
    guard !finished else { return }
    model.connecting()
    let channel: GRPCChannel
    do {
      channel = try GRPCChannel.connect(
        to: options.server, on: loop, configuration: options.clientConfiguration,
        connectTimeout: min(options.timeout, .seconds(5)))
    } catch {
      lost(reason: "\(error)")
      return
    }
    self.channel = channel
    let query = SubscribeQuery(
      ids: settings.ids, idPrefix: settings.prefix, includeSnapshot: true,
      sinceRevision: model.resumeRevision, minIntervalMs: settings.minIntervalMs,
      valueDeltas: settings.valueDeltas)
    let handler = CallbackCallHandler(
      onMessage: { [weak self] bytes in self?.received(bytes) },
      onFinish: { [weak self] status, _ in self?.ended(status) })
    let call = channel.makeCall(
      path: Self.subscribePath, metadata: options.metadata,
      timeout: settings.once ? options.timeout : nil, handler: handler)
    call.send(WidgetWire.encodeSubscribeRequest(query))
    call.closeSend()
    self.call = call
    if !settings.once {
      let timeout = options.timeout
      answerTimer = loop.schedule(after: timeout) { [weak self] in
        self?.answerTimer = nil
        // The call ends with this status, and `ended` reconnects.
        self?.channel?.close(GRPCStatus(.unavailable, "no answer within \(timeout)"))
      }
    }
    model.subscribed()
    changed()
  }

  private func received(_ bytes: [UInt8]) {
    guard !finished else { return }
    stopWaitingForAnswer()
    let decoded = bytes.withUnsafeBytes { raw in
      Result { () throws(WireError) in try WidgetWire.decodeWidgetEvent(raw) }
    }
    // An event this build cannot read (a newer server) is skipped.
    guard case .success(let event) = decoded else { return }
    model.apply(event)
    if settings.output == .events {
      let line = settings.json ? EventLine.json(event) : EventLine.text(event)
      if !Console.write(line + "\n", to: 1) { return finish(.ok) }
    }
    if case .synced = event, settings.once {
      if settings.output != .events { printFrame() }
      return finish(.ok)
    }
    changed()
  }

  private func stopWaitingForAnswer() {
    guard let answerTimer else { return }
    loop.cancel(answerTimer)
    self.answerTimer = nil
  }

  private func ended(_ status: GRPCStatus) {
    stopWaitingForAnswer()
    call = nil
    channel?.close(status)
    channel = nil
    guard !finished else { return }
    if Self.isPermanent(status.code) || settings.once {
      return finish(
        StatusReport.exitCode(for: status.code),
        StatusReport.error(status, doing: "watch", server: options.serverText))
    }
    lost(reason: status.message.isEmpty ? status.code.canonicalName : status.message)
  }

  private func lost(reason: String) {
    guard !finished else { return }
    channel?.close()
    channel = nil
    if settings.once {
      return finish(
        .unreachable, .unreachable("watch: cannot reach gauged at \(options.serverText): \(reason)")
      )
    }
    model.connectionLost(reason: reason)
    if settings.output == .events {
      Console.error("gaugectl: watch: \(reason); reconnecting\n")
    }
    changed()
    reconnectTimer = loop.schedule(after: Self.backoff(attempt: attemptNumber)) { [weak self] in
      self?.connect()
    }
  }

  private var attemptNumber: Int {
    if case .disconnected(let attempt, _) = model.phase { return attempt }
    return 1
  }

  /// 250 ms, doubling to at most 2 s.
  static func backoff(attempt: Int) -> Duration {
    .milliseconds(min(250 << min(max(attempt - 1, 0), 3), 2000))
  }

  /// Statuses that another try would only repeat: the request itself is
  /// wrong or not allowed.
  static func isPermanent(_ code: GRPCStatus.Code) -> Bool {
    switch code {
    case .invalidArgument, .notFound, .unimplemented, .unauthenticated, .permissionDenied,
      .failedPrecondition, .outOfRange:
      true
    default:
      false
    }
  }

  // MARK: Showing it

  private func changed() {
    guard !finished, settings.output != .events, !settings.once, !redrawScheduled else { return }
    redrawScheduled = true
    loop.afterTurn { [weak self] in
      self?.redrawScheduled = false
      self?.redraw()
    }
  }

  private func redraw() {
    guard !finished else { return }
    let frame = currentFrame(interactive: keyboard != nil)
    switch settings.output {
    case .screen:
      screen?.draw(frame)
    case .frames:
      // Into a pipe only real changes go, not the clock ticking.
      guard frame != lastFrame else { return }
      if !Console.writeTerminalCodes(text(frame) + "\n") { finish(.ok) }
    case .events:
      break
    }
    lastFrame = frame
  }

  private func tick() {
    tickTimer = loop.schedule(after: .seconds(1)) { [weak self] in
      self?.changed()
      self?.tick()
    }
  }

  private func currentFrame(interactive: Bool) -> [ScreenLine] {
    ScreenRenderer.frame(
      model, ids: settings.ids, size: TerminalSize.current(environment: settings.environment),
      nowMs: settings.clock.nowMs, interactive: interactive)
  }

  private func printFrame() {
    Console.writeTerminalCodes(text(currentFrame(interactive: false)))
  }

  /// Plain or coloured lines, trailing spaces and blank lines left out.
  private func text(_ frame: [ScreenLine]) -> String {
    var lines = frame.map { line -> String in
      var text = palette.render(line)
      while text.hasSuffix(" ") { text.removeLast() }
      return text
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.map { $0 + "\n" }.joined()
  }
}
