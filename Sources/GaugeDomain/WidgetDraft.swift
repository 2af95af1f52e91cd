/// The user-editable part of a widget before validation: what PutWidget
/// sends, or what UpdateWidget's merge produces.
struct WidgetDraft {
  var name: String?
  var content: ContentPatch?
  var staleAfterMs: Int64?

  init(name: String?, content: ContentPatch?, staleAfterMs: Int64? = nil) {
    self.name = name
    self.content = content
    self.staleAfterMs = staleAfterMs
  }

  init(_ widget: Widget) {
    self.init(
      name: widget.name, content: ContentPatch(widget.content), staleAfterMs: widget.staleAfterMs)
  }

  /// `update` laid over `self`: present fields overwrite, absent ones are kept.
  func overlaid(with update: WidgetUpdate) -> WidgetDraft {
    let mergedContent: ContentPatch? =
      switch (content, update.content) {
      case (let base?, let patch?): base.overlaid(with: patch)
      case (let base, nil): base
      case (nil, let patch): patch
      }
    return WidgetDraft(
      name: update.name ?? name, content: mergedContent,
      staleAfterMs: update.staleAfterMs ?? staleAfterMs)
  }
}

extension Violations {
  /// The validated name, content and staleness, or nil after recording
  /// every violation.
  mutating func resolve(_ draft: WidgetDraft) -> ResolvedDraft? {
    let before = all.count
    checkText(draft.name, maxLength: Limit.name, at: "name")
    let content = resolveContent(draft.content, at: "content")
    checkStaleAfter(draft.staleAfterMs)
    guard all.count == before, let content else { return nil }
    return ResolvedDraft(name: draft.name ?? "", content: content, staleAfterMs: draft.staleAfterMs)
  }
}

/// A draft that passed validation: what a stored widget is made of.
struct ResolvedDraft {
  var name: String
  var content: Content
  var staleAfterMs: Int64?
}
