/// How much of each cheap-to-send, costly-to-answer frame pattern a peer
/// gets before its connection is torn down with ENHANCE_YOUR_CALM. The
/// defaults are nghttp2's own.
package struct FloodLimits: Equatable {
  /// Entries in one SETTINGS frame.
  package var maxSettingsEntries = 32
  /// SETTINGS and PING acknowledgements owed to the peer and not yet sent.
  package var maxOwedAcks = 1000
  /// CONTINUATION frames after one HEADERS frame.
  package var maxContinuations = 8
  /// RST_STREAM frames from the peer: a token bucket of `resetBurst`
  /// tokens, refilled at `resetsPerSecond`.
  package var resetBurst = 1000
  package var resetsPerSecond = 33

  package init() {}
}

/// Which flood limits a party enforces.
package struct FloodChecks: OptionSet, Equatable {
  package let rawValue: UInt8

  package init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  package static let settingsEntries = FloodChecks(rawValue: 1 << 0)
  package static let owedAcks = FloodChecks(rawValue: 1 << 1)
  package static let continuations = FloodChecks(rawValue: 1 << 2)
  package static let resetRate = FloodChecks(rawValue: 1 << 3)
  package static let all: FloodChecks = [.settingsEntries, .owedAcks, .continuations, .resetRate]
}

/// gauged's own count of the floods that the linked libnghttp2 does not
/// limit itself (older or unpatched builds lack some of the options). Fed
/// with frame headers as they arrive; a non-nil answer names the flood, and
/// the connection must go.
struct FloodGuard {
  let limits: FloodLimits
  /// The checks this guard performs: those the library does not.
  let checks: FloodChecks
  private var continuations = 0
  private var owedAcks = 0
  private var resetTokens: Double
  private var lastRefill: ContinuousClock.Instant?

  init(limits: FloodLimits, checks: FloodChecks) {
    self.limits = limits
    self.checks = checks
    self.resetTokens = Double(limits.resetBurst)
  }

  /// A frame header arrived (HEADERS, CONTINUATION and SETTINGS matter).
  mutating func frameBegins(type: UInt8, length: Int, isAck: Bool) -> String? {
    switch type {
    case 0x1:  // HEADERS starts a new header block.
      continuations = 0
    case 0x9:  // CONTINUATION
      guard checks.contains(.continuations) else { return nil }
      continuations += 1
      if continuations > limits.maxContinuations {
        return "more than \(limits.maxContinuations) CONTINUATION frames in one header block"
      }
    case 0x4 where !isAck:  // SETTINGS, six bytes per entry
      guard checks.contains(.settingsEntries) else { return nil }
      if length / 6 > limits.maxSettingsEntries {
        return "more than \(limits.maxSettingsEntries) entries in one SETTINGS frame"
      }
    default:
      break
    }
    return nil
  }

  /// A PING or SETTINGS arrived that must be acknowledged.
  mutating func ackOwed() -> String? {
    guard checks.contains(.owedAcks) else { return nil }
    owedAcks += 1
    if owedAcks > limits.maxOwedAcks {
      return "more than \(limits.maxOwedAcks) PING and SETTINGS acknowledgements left unread"
    }
    return nil
  }

  /// Everything the session had queued has been taken for sending.
  mutating func outputDrained() {
    owedAcks = 0
  }

  /// The peer reset a stream.
  mutating func resetReceived(at now: ContinuousClock.Instant) -> String? {
    guard checks.contains(.resetRate) else { return nil }
    if let lastRefill {
      let elapsed = now - lastRefill
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      resetTokens = min(
        Double(limits.resetBurst), resetTokens + seconds * Double(limits.resetsPerSecond))
    }
    lastRefill = now
    guard resetTokens >= 1 else {
      return "streams reset faster than \(limits.resetsPerSecond) per second"
        + " after a burst of \(limits.resetBurst)"
    }
    resetTokens -= 1
    return nil
  }
}
