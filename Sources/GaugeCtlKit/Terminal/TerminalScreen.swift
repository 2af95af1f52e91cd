import GaugeIO
import Glibc

/// The full-screen view: the alternate screen with the cursor hidden, and
/// the keyboard unbuffered and silent (so `q` needs no Enter). `leave()`
/// puts everything back; it runs on every way out.
final class TerminalScreen {
  private let palette: Palette
  private var savedAttributes: termios?
  private var entered = false

  init(palette: Palette) {
    self.palette = palette
  }

  func enter() {
    guard !entered else { return }
    entered = true
    if Syscall.isTerminal(fd: 0), var attributes = try? Syscall.terminalAttributes(fd: 0) {
      savedAttributes = attributes
      // No line buffering and no echo; Ctrl-C still raises SIGINT.
      attributes.c_lflag &= ~tcflag_t(ICANON | ECHO)
      try? Syscall.setTerminalAttributes(fd: 0, attributes)
    }
    Console.writeTerminalCodes("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  /// Redraws from the top left; each row is cleared to its end, and
  /// whatever lies below the last row too.
  func draw(_ lines: [ScreenLine]) {
    guard entered else { return }
    var out = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      out += palette.render(line) + "\u{1B}[K"
      if index < lines.count - 1 { out += "\r\n" }
    }
    out += "\u{1B}[J"
    Console.writeTerminalCodes(out)
  }

  func leave() {
    guard entered else { return }
    entered = false
    Console.writeTerminalCodes("\u{1B}[?25h\u{1B}[?1049l")
    if let savedAttributes { try? Syscall.setTerminalAttributes(fd: 0, savedAttributes) }
  }
}
