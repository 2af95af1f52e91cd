/// How styles reach the terminal.
public enum ColorMode: Sendable, Equatable {
  /// No escape sequences at all: pipes, files, `NO_COLOR`.
  case plain
  /// The xterm 256-colour cube.
  case ansi256
  /// 24-bit colour (`COLORTERM=truecolor`).
  case trueColor

  /// `NO_COLOR` (https://no-color.org) or a non-terminal means plain; a
  /// terminal that says it has 24-bit colour gets it, others 256 colours.
  public static func detect(environment: [String: String], isTerminal: Bool) -> ColorMode {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
    guard isTerminal, environment["TERM"] != "dumb" else { return .plain }
    switch environment["COLORTERM"]?.lowercased() {
    case "truecolor", "24bit": return .trueColor
    default: return .ansi256
    }
  }
}

/// Turns styled lines into text for the terminal.
public struct Palette: Sendable {
  public var mode: ColorMode

  public init(_ mode: ColorMode) {
    self.mode = mode
  }

  public func render(_ line: ScreenLine) -> String {
    guard mode != .plain else { return line.plainText.escapingControlCharacters }
    var out = ""
    for span in line {
      let text = span.text.escapingControlCharacters
      let codes = sgr(span.style)
      if codes.isEmpty {
        out += text
      } else {
        out += "\u{1B}[" + codes + "m" + text + "\u{1B}[0m"
      }
    }
    return out
  }

  private func sgr(_ style: TextStyle) -> String {
    var codes: [String] = []
    if style.bold { codes.append("1") }
    if style.dim { codes.append("2") }
    if style.inverse { codes.append("7") }
    if let color = style.foreground {
      switch mode {
      case .trueColor: codes.append("38;2;\(color.red);\(color.green);\(color.blue)")
      case .ansi256: codes.append("38;5;\(Self.cubeIndex(color))")
      case .plain: break
      }
    }
    return codes.joined(separator: ";")
  }

  /// The nearest colour of the 6×6×6 cube (indices 16 to 231).
  static func cubeIndex(_ color: RGB) -> Int {
    func level(_ channel: UInt8) -> Int {
      // The cube's levels are 0, 95, 135, 175, 215, 255.
      let value = Int(channel)
      return value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
    }
    return 16 + 36 * level(color.red) + 6 * level(color.green) + level(color.blue)
  }
}
