import GaugeIO

enum TerminalSize {
  /// `COLUMNS` and `LINES` when set (as `ls` honours them; tests fix the
  /// frame this way), else the terminal's own size, else 80×24.
  static func current(environment: [String: String]) -> ScreenRenderer.Size {
    let measured = Syscall.terminalSize(fd: 1) ?? Syscall.terminalSize(fd: 0)
    func fromEnvironment(_ name: String) -> Int? {
      environment[name].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }
    return ScreenRenderer.Size(
      columns: fromEnvironment("COLUMNS") ?? measured?.columns ?? 80,
      rows: fromEnvironment("LINES") ?? measured?.rows ?? 24)
  }
}
