import GaugeDomain

/// A whole `gaugectl watch` frame: a status header, then one card per
/// widget with a blank line between, cut to the screen with a note of what
/// did not fit. Pure: the same model, size and clock give the same lines.
public enum ScreenRenderer {
  public struct Size: Sendable, Equatable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
      self.columns = columns
      self.rows = rows
    }
  }

  /// `interactive` adds the key help to the header.
  public static func frame(
    _ model: WatchModel, ids: [String], size: Size, nowMs: Int64, interactive: Bool
  ) -> [ScreenLine] {
    let columns = max(size.columns, 20)
    let rows = max(size.rows, 3)
    let widgets = model.ordered(ids: ids)
    var lines: [ScreenLine] = [
      header(model, count: widgets.count, columns: columns, interactive: interactive), [],
    ]
    if widgets.isEmpty {
      lines.append([Span(model.isLive ? "no widgets match" : "waiting for widgets…", .dimmed)])
    }
    for (index, widget) in widgets.enumerated() {
      let card = CardRenderer.lines(
        for: widget, columns: columns, nowMs: nowMs, stale: !model.isLive || widget.stale)
      let isLast = index == widgets.count - 1
      // Room for the card, its spacer, and a note if more follow.
      let needed = card.count + (isLast ? 0 : 2)
      if lines.count + needed > rows {
        let hidden = widgets.count - index
        let note =
          "… \(hidden) more widget\(hidden == 1 ? "" : "s") below (a taller terminal shows them)"
        lines.append([Span(DisplayWidth.truncate(note, to: columns), .dimmed)])
        break
      }
      lines += card
      if !isLast { lines.append([]) }
    }
    return Array(lines.prefix(rows))
  }

  static func header(
    _ model: WatchModel, count: Int, columns: Int, interactive: Bool
  ) -> ScreenLine {
    let state: Span =
      switch model.phase {
      case .live: Span("live", TextStyle(foreground: RGB(52, 199, 89), bold: true))
      case .syncing: Span("syncing…", TextStyle(foreground: RGB(255, 204, 0), bold: true))
      case .connecting(let attempt):
        Span(
          attempt > 1 ? "connecting (attempt \(attempt))…" : "connecting…",
          TextStyle(foreground: RGB(255, 204, 0), bold: true))
      case .disconnected(let attempt, let reason):
        // Before the first sync there is nothing to get back to.
        Span(
          (model.resumeRevision == nil ? "connecting" : "reconnecting")
            + (attempt > 1 ? " (attempt \(attempt))" : "") + ": " + reason,
          TextStyle(foreground: RGB(255, 59, 48), bold: true))
      }
    let left: ScreenLine = [
      Span("gaugectl watch", .strong),
      Span(" · \(count) widget\(count == 1 ? "" : "s") · ", .dimmed), state,
    ]
    // The state matters more than the key help, which goes when space is short.
    let help: ScreenLine = [Span("q quits", .dimmed)]
    guard interactive, left.width + 2 + help.width <= columns else {
      return left.truncated(to: columns)
    }
    return .spread(left, help, columns: columns)
  }
}
