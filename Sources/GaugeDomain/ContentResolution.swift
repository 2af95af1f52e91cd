extension Content {
  /// A strict `Content` from a draft, or `.invalid` with every violation,
  /// reported under `content.` paths.
  public init(validating draft: ContentPatch) throws(WidgetError) {
    var violations = Violations()
    let content = violations.resolveContent(draft, at: "content")
    try violations.check()
    guard let content else {
      preconditionFailure("resolution recorded no violation but produced no content")
    }
    self = content
  }
}

extension Violations {
  mutating func resolveContent(_ draft: ContentPatch?, at path: @autoclosure () -> String)
    -> Content?
  {
    guard let draft else {
      add(path(), "is required")
      return nil
    }
    let before = all.count
    var template: Template?
    if let templateDraft = draft.template {
      template = resolveTemplate(templateDraft, at: path())
    } else {
      add(path(), "a template (gauge, progress or value) is required")
    }
    checkText(draft.label, maxLength: Limit.label, at: path() + ".label")
    checkText(draft.subtitle, maxLength: Limit.subtitle, at: path() + ".subtitle")
    checkIcon(draft.icon, at: path() + ".icon")
    checkText(draft.unit, maxLength: Limit.unit, at: path() + ".unit")
    let trend = resolveEnum(Trend.self, draft.trend, default: .unspecified, at: path() + ".trend")
    checkColor(draft.accentColor, at: path() + ".accent_color")
    checkColor(draft.backgroundColor, at: path() + ".background_color")
    checkColor(draft.textColor, at: path() + ".text_color")

    guard all.count == before, let template, let trend else { return nil }
    return Content(
      template: template, label: draft.label, subtitle: draft.subtitle, icon: draft.icon,
      unit: draft.unit, trend: trend, accentColor: draft.accentColor,
      backgroundColor: draft.backgroundColor, textColor: draft.textColor)
  }
}
