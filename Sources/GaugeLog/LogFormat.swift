import Glibc

/// One line per event: `text` for people (`time level event message
/// key=value ...`), `json` for collectors (one object per line).
public enum LogFormat: String, Sendable, CaseIterable {
  case text
  case json

  /// Text on a terminal, JSON otherwise (a file, a pipe, a collector).
  public static var forStandardError: LogFormat {
    isatty(2) != 0 ? .text : .json
  }
}
