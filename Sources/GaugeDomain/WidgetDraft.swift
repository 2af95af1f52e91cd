/// The user-editable part of a widget before validation: what PutWidget
/// sends, or what UpdateWidget's merge produces.
struct WidgetDraft {
  var name: String?
  var content: ContentPatch?

  init(name: String?, content: ContentPatch?) {
    self.name = name
    self.content = content
  }

  init(_ widget: Widget) {
    self.init(name: widget.name, content: ContentPatch(widget.content))
  }

  /// `update` laid over `self`: present fields overwrite, absent ones are kept.
  func overlaid(with update: WidgetUpdate) -> WidgetDraft {
    let mergedContent: ContentPatch? =
      switch (content, update.content) {
      case (let base?, let patch?): base.overlaid(with: patch)
      case (let base, nil): base
      case (nil, let patch): patch
      }
    return WidgetDraft(name: update.name ?? name, content: mergedContent)
  }
}

extension Violations {
  /// The validated name and content, or nil after recording every violation.
  mutating func resolve(_ draft: WidgetDraft) -> (name: String, content: Content)? {
    let before = all.count
    checkText(draft.name, maxLength: Limit.name, at: "name")
    let content = resolveContent(draft.content, at: "content")
    guard all.count == before, let content else { return nil }
    return (draft.name ?? "", content)
  }
}
