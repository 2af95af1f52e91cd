import GaugeDomain
import GaugeJSON

/// Reads a REST widget body into a domain request, reporting every problem
/// under its REST field path (`content.value`, `content.marks[1].label`):
/// unknown fields, wrong types, unknown template, style and trend names.
/// The values themselves are left to the domain's rules.
///
/// A replacement (PUT, POST) treats `null` as absent; a merge patch
/// (RFC 7396) treats it as "clear", collected as proto `clear_fields`
/// together with the REST path each came from.
package struct RESTWidgetReader {
  package enum Mode {
    case replace
    case mergePatch
  }

  private let mode: Mode
  private(set) var violations: [FieldViolation] = []
  private var clearFields: [String] = []
  private var clearPaths: [String] = []
  private var staleAfterMs: Int64?

  private init(mode: Mode) {
    self.mode = mode
  }

  /// A PUT or POST body for the widget `id` (from the path, or nil for a
  /// POST, whose body names it).
  package static func replacement(_ json: JSONValue, id: String?) -> Result<WidgetPut, RESTInvalid>
  {
    var reader = RESTWidgetReader(mode: .replace)
    let (bodyID, name, content) = reader.widget(json, pathID: id, storedKind: nil)
    guard reader.violations.isEmpty else { return .failure(RESTInvalid(reader.violations)) }
    return .success(
      WidgetPut(
        id: id ?? bodyID, name: name, content: content, staleAfterMs: reader.staleAfterMs))
  }

  /// A PATCH body for the widget `id`. `storedKind` is the stored widget's
  /// template, for template fields sent without `template`.
  package static func mergePatch(_ json: JSONValue, id: String, storedKind: TemplateKind?)
    -> Result<RESTMergePatch, RESTInvalid>
  {
    var reader = RESTWidgetReader(mode: .mergePatch)
    let (_, name, content) = reader.widget(json, pathID: id, storedKind: storedKind)
    guard reader.violations.isEmpty else { return .failure(RESTInvalid(reader.violations)) }
    return .success(
      RESTMergePatch(
        update: WidgetUpdate(
          id: id, name: name, content: content, clearFields: reader.clearFields,
          staleAfterMs: reader.staleAfterMs),
        clearPaths: reader.clearPaths))
  }

  // MARK: The widget

  private mutating func widget(_ json: JSONValue, pathID: String?, storedKind: TemplateKind?)
    -> (id: String?, name: String?, content: ContentPatch?)
  {
    guard case .object(let members) = json else {
      add("body", "must be a JSON object, got \(json.kind)")
      return (nil, nil, nil)
    }
    var id: String?
    var name: String?
    var content: ContentPatch?
    for (key, value) in members {
      switch key {
      case "id":
        guard let given = string(value, at: "id") else { continue }
        if let pathID, given != pathID {
          add(
            "id",
            "\(JSONWriter.quoted(given)) differs from the id in the path, "
              + JSONWriter.quoted(pathID))
        }
        id = given
      case "name":
        if case .null = value, mode == .mergePatch {
          clear("name", at: "name")
        } else {
          name = string(value, at: "name")
        }
      case "content":
        if case .null = value {
          if mode == .mergePatch { add("content", "is required and cannot be cleared") }
          continue
        }
        content = self.content(value, storedKind: storedKind)
      case StaleAfter.field:
        if case .null = value {
          if mode == .mergePatch { clear(StaleAfter.field, at: StaleAfter.field) }
        } else {
          staleAfterMs = milliseconds(value, at: StaleAfter.field)
        }
      case "revision", "created_at", "updated_at", "stale":
        continue  // set by the server; a widget read back may be sent as it is
      default:
        add(key, "is not a field of a widget")
      }
    }
    return (id, name, content)
  }

  // MARK: Content

  private mutating func content(_ json: JSONValue, storedKind: TemplateKind?) -> ContentPatch? {
    guard case .object(let members) = json else {
      add("content", "must be an object, got \(json.kind)")
      return nil
    }
    let kind = templateKind(json["template"], storedKind: storedKind, members: members)
    var patch = ContentPatch()
    var template = kind.map(emptyTemplate)
    for (key, value) in members where key != "template" {
      let path = "content." + key
      if RESTContentFields.shared.contains(key) {
        shared(key, value, at: path, into: &patch)
      } else if let kind, RESTContentFields.of(kind).contains(key) {
        templateField(key, value, at: path, into: &template!)
      } else if kind == nil, RESTContentFields.anyTemplate.contains(key) {
        continue  // the template's own problem is already reported
      } else if let kind {
        add(path, "is not a field of a \(RESTContentFields.name(of: kind)) widget")
      } else {
        add(path, "is not a field of a widget's content")
      }
    }
    let namesTemplate = json["template"] != nil
    let hasTemplateFields = members.contains { RESTContentFields.anyTemplate.contains($0.key) }
    if namesTemplate || hasTemplateFields { patch.template = template }
    return patch
  }

  private mutating func templateKind(
    _ json: JSONValue?, storedKind: TemplateKind?, members: [(key: String, value: JSONValue)]
  ) -> TemplateKind? {
    switch json {
    case nil:
      if mode == .replace {
        add("content.template", "is required (gauge, progress or value)")
        return nil
      }
      let hasTemplateFields = members.contains { RESTContentFields.anyTemplate.contains($0.key) }
      if storedKind == nil, hasTemplateFields {
        add(
          "content.template",
          "is required: there is no stored widget whose template the fields could belong to")
      }
      return storedKind
    case .null?:
      add("content.template", "is required and cannot be cleared")
      return nil
    case .string(let name)?:
      guard let kind = RESTContentFields.kind(named: name) else {
        add(
          "content.template",
          "\(JSONWriter.quoted(name)) is not a template (gauge, progress or value)")
        return nil
      }
      return kind
    case let other?:
      add("content.template", "must be a string, got \(other.kind)")
      return nil
    }
  }

  private func emptyTemplate(_ kind: TemplateKind) -> TemplatePatch {
    switch kind {
    case .gauge: .gauge(GaugePatch())
    case .progress: .progress(ProgressPatch())
    case .value: .value(PlainValuePatch())
    }
  }

  private mutating func shared(
    _ key: String, _ value: JSONValue, at path: String, into patch: inout ContentPatch
  ) {
    if case .null = value {
      if mode == .mergePatch { clear(path, at: path) }
      return
    }
    if key == "trend" {
      patch.trend = trend(value, at: path)
      return
    }
    let text = string(value, at: path)
    switch key {
    case "label": patch.label = text
    case "subtitle": patch.subtitle = text
    case "icon": patch.icon = text
    case "unit": patch.unit = text
    case "accent_color": patch.accentColor = text
    case "background_color": patch.backgroundColor = text
    case "text_color": patch.textColor = text
    default: preconditionFailure("\(key) is not a shared content field")
    }
  }

  // MARK: Template fields

  private mutating func templateField(
    _ key: String, _ value: JSONValue, at path: String, into template: inout TemplatePatch
  ) {
    if case .null = value {
      clearTemplateField(key, of: template.kind, at: path)
      return
    }
    switch template {
    case .gauge(var gauge):
      switch key {
      case "value": gauge.value = number(value, at: path)
      case "min_value": gauge.minValue = number(value, at: path)
      case "max_value": gauge.maxValue = number(value, at: path)
      case "style": gauge.style = style(value, at: path)
      case "gradient": gauge.gradient = strings(value, at: path)
      case "marks": gauge.marks = marks(value, at: path)
      case "current_value_label": gauge.currentValueLabel = string(value, at: path)
      case "min_label": gauge.minLabel = string(value, at: path)
      case "max_label": gauge.maxLabel = string(value, at: path)
      default: preconditionFailure("\(key) is not a gauge field")
      }
      template = .gauge(gauge)
    case .progress(var progress):
      progress.value = number(value, at: path)
      template = .progress(progress)
    case .value(var plain):
      switch key {
      case "value": plain.value = number(value, at: path)
      case "min_value": plain.minValue = number(value, at: path)
      case "max_value": plain.maxValue = number(value, at: path)
      default: preconditionFailure("\(key) is not a value field")
      }
      template = .value(plain)
    }
  }

  /// `null` for a template field: absent in a replacement; in a merge
  /// patch, cleared when the template allows it to be absent.
  private mutating func clearTemplateField(_ key: String, of kind: TemplateKind, at path: String) {
    guard mode == .mergePatch else { return }
    let required: Set<String> =
      kind == .value ? ["value"] : ["value", "min_value", "max_value"]
    if required.contains(key) {
      add(path, "is required and cannot be cleared")
      return
    }
    clear("content.\(RESTContentFields.name(of: kind)).\(key)", at: path)
  }

  private mutating func marks(_ json: JSONValue, at path: String) -> [MarkPatch]? {
    guard case .array(let elements) = json else {
      add(path, "must be an array, got \(json.kind)")
      return nil
    }
    var marks: [MarkPatch] = []
    for (index, element) in elements.enumerated() {
      let markPath = "\(path)[\(index)]"
      guard case .object(let members) = element else {
        add(markPath, "must be an object, got \(element.kind)")
        continue
      }
      var mark = MarkPatch()
      for (key, value) in members {
        switch (key, value) {
        case (_, .null): continue
        case ("value", _): mark.value = number(value, at: "\(markPath).value")
        case ("label", _): mark.label = string(value, at: "\(markPath).label")
        default: add("\(markPath).\(key)", "is not a field of a mark")
        }
      }
      marks.append(mark)
    }
    return marks
  }

  // MARK: Values

  private mutating func string(_ json: JSONValue, at path: String) -> String? {
    guard case .string(let text) = json else {
      add(path, "must be a string, got \(json.kind)")
      return nil
    }
    return text
  }

  private mutating func number(_ json: JSONValue, at path: String) -> Double? {
    guard case .number(let number) = json else {
      add(path, "must be a number, got \(json.kind)")
      return nil
    }
    return number
  }

  /// A whole number of milliseconds. One that no Int64 holds is past any
  /// bound, and refused here with the bounds' own words.
  private mutating func milliseconds(_ json: JSONValue, at path: String) -> Int64? {
    guard let number = number(json, at: path) else { return nil }
    guard number.rounded() == number else {
      add(path, "must be a whole number of milliseconds, got \(number)")
      return nil
    }
    guard let whole = Int64(exactly: number) else {
      add(
        path,
        "must be between \(StaleAfter.minimumMs) (one second) and \(StaleAfter.maximumMs) "
          + "(seven days), got \(number)")
      return nil
    }
    return whole
  }

  private mutating func strings(_ json: JSONValue, at path: String) -> [String]? {
    guard case .array(let elements) = json else {
      add(path, "must be an array, got \(json.kind)")
      return nil
    }
    return elements.enumerated().compactMap { string($1, at: "\(path)[\($0)]") }
  }

  private mutating func style(_ json: JSONValue, at path: String) -> Int32? {
    guard let name = string(json, at: path) else { return nil }
    guard let style = GaugeStyle(schemaName: name) else {
      let known = GaugeStyle.allCases.map(\.schemaName).joined(separator: ", ")
      add(path, "\(JSONWriter.quoted(name)) is not a style (\(known))")
      return nil
    }
    return style.rawValue
  }

  private mutating func trend(_ json: JSONValue, at path: String) -> Int32? {
    guard let name = string(json, at: path) else { return nil }
    guard let trend = Trend(schemaName: name), trend != .unspecified else {
      add(path, "\(JSONWriter.quoted(name)) is not a trend (up, down or flat)")
      return nil
    }
    return trend.rawValue
  }

  private mutating func clear(_ protoPath: String, at restPath: String) {
    clearFields.append(protoPath)
    clearPaths.append(restPath)
  }

  private mutating func add(_ field: String, _ detail: String) {
    violations.append(FieldViolation(field: field, description: detail))
  }
}

/// A merge patch as the domain takes it, and the REST path of each of its
/// `clearFields`, so the domain's violations there can name them.
package struct RESTMergePatch {
  package var update: WidgetUpdate
  package var clearPaths: [String]
}

/// A body the REST face could read but not use: every violation, under
/// REST field paths.
package struct RESTInvalid: Error {
  package var violations: [FieldViolation]

  package init(_ violations: [FieldViolation]) {
    self.violations = violations
  }
}
