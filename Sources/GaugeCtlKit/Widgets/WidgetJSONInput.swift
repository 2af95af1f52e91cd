import GaugeDomain
import GaugeJSON

/// `gaugectl put ID -f widget.json`: a widget described in JSON, in either
/// of two shapes, both with the schema's field names:
///
/// - flat: `{"template": "gauge", "value": 42, "min_value": 0,
///   "max_value": 100, "unit": "%", "accent_color": "orange", ...}`
/// - nested, as `gaugectl get --json` prints it: `{"name": ..., "content":
///   {"gauge": {"value": 42, ...}, "unit": "%", ...}}` (server-set fields
///   such as `revision` are ignored).
///
/// Every problem is reported, each naming its field; values themselves are
/// left to the server's rules.
struct WidgetJSONInput {
  private var problems: [String] = []

  static func put(_ json: JSONValue, id: String?) throws(CLIError) -> WidgetPut {
    var reader = WidgetJSONInput()
    let put = reader.read(json, id: id)
    guard reader.problems.isEmpty, let put else {
      throw .rejected("the widget JSON is not usable:", reader.problems)
    }
    return put
  }

  private static let sharedKeys = [
    "label", "subtitle", "icon", "unit", "trend", "accent_color", "background_color", "text_color",
  ]
  private static let gaugeKeys = [
    "value", "min_value", "max_value", "style", "gradient", "marks", "current_value_label",
    "min_label", "max_label",
  ]
  private static let valueKeys = ["value", "min_value", "max_value"]
  private static let serverSetKeys = ["revision", "created_at_ms", "updated_at_ms"]

  private mutating func read(_ json: JSONValue, id: String?) -> WidgetPut? {
    guard case .object = json else {
      problems.append("expected an object, got \(json.kind)")
      return nil
    }
    let givenID = string(json, "id", at: "id")
    if let id, let givenID, givenID != id {
      problems.append("id: \"\(givenID)\" differs from the id on the command line, \"\(id)\"")
    }
    let name = string(json, "name", at: "name")
    let content: ContentPatch?
    if json["content"] != nil {
      rejectUnknown(json, allowed: ["id", "name", "content"] + Self.serverSetKeys, at: "")
      content = nested(json["content"]!)
    } else {
      rejectUnknown(
        json, allowed: ["id", "name", "template"] + Self.sharedKeys + Self.gaugeKeys, at: "")
      content = flat(json)
    }
    guard let finalID = id ?? givenID else {
      problems.append("id: give it on the command line or in the JSON")
      return nil
    }
    return WidgetPut(id: finalID, name: name, content: content)
  }

  // MARK: Flat

  private mutating func flat(_ json: JSONValue) -> ContentPatch? {
    guard let template = string(json, "template", at: "template") else {
      if json["template"] == nil {
        problems.append("template: is required (gauge, progress or value)")
      }
      return nil
    }
    let patch: TemplatePatch
    switch template {
    case "gauge":
      patch = .gauge(gauge(json, at: ""))
    case "progress":
      rejectKeys(json, Self.gaugeKeys.filter { $0 != "value" }, template: "progress")
      patch = .progress(ProgressPatch(value: number(json, "value", at: "value")))
    case "value":
      rejectKeys(json, Self.gaugeKeys.filter { !Self.valueKeys.contains($0) }, template: "value")
      patch = .value(plainValue(json, at: ""))
    default:
      problems.append("template: \"\(template)\" is not gauge, progress or value")
      return nil
    }
    return shared(json, template: patch, at: "")
  }

  private mutating func rejectKeys(_ json: JSONValue, _ keys: [String], template: String) {
    for key in keys where json[key] != nil {
      problems.append("\(key): does not apply to a \(template) widget")
    }
  }

  // MARK: Nested

  private mutating func nested(_ json: JSONValue) -> ContentPatch? {
    guard case .object = json else {
      problems.append("content: expected an object, got \(json.kind)")
      return nil
    }
    rejectUnknown(
      json, allowed: ["gauge", "progress", "value"] + Self.sharedKeys, at: "content.")
    let templates = ["gauge", "progress", "value"].filter { json[$0] != nil }
    guard templates.count == 1, let name = templates.first, let body = json[name] else {
      problems.append(
        templates.isEmpty
          ? "content: needs one of gauge, progress or value"
          : "content: has more than one template (\(templates.joined(separator: ", ")))")
      return nil
    }
    guard case .object = body else {
      problems.append("content.\(name): expected an object, got \(body.kind)")
      return nil
    }
    let path = "content.\(name)."
    let patch: TemplatePatch
    switch name {
    case "gauge":
      rejectUnknown(body, allowed: Self.gaugeKeys, at: path)
      patch = .gauge(gauge(body, at: path))
    case "progress":
      rejectUnknown(body, allowed: ["value"], at: path)
      patch = .progress(ProgressPatch(value: number(body, "value", at: path + "value")))
    default:
      rejectUnknown(body, allowed: Self.valueKeys, at: path)
      patch = .value(plainValue(body, at: path))
    }
    return shared(json, template: patch, at: "content.")
  }

  // MARK: Pieces

  private mutating func gauge(_ json: JSONValue, at path: String) -> GaugePatch {
    var style: Int32?
    if let text = string(json, "style", at: path + "style") {
      style = EnumNames.style(text)
      if style == nil {
        problems.append("\(path)style: \"\(text)\" is not one of \(EnumNames.styleList)")
      }
    } else if case .number(let number)? = json["style"], let raw = Int32(exactly: number) {
      style = raw
    }
    return GaugePatch(
      value: number(json, "value", at: path + "value"),
      minValue: number(json, "min_value", at: path + "min_value"),
      maxValue: number(json, "max_value", at: path + "max_value"),
      style: style,
      gradient: strings(json, "gradient", at: path + "gradient"),
      marks: marks(json, at: path + "marks"),
      currentValueLabel: string(json, "current_value_label", at: path + "current_value_label"),
      minLabel: string(json, "min_label", at: path + "min_label"),
      maxLabel: string(json, "max_label", at: path + "max_label"))
  }

  private mutating func plainValue(_ json: JSONValue, at path: String) -> PlainValuePatch {
    PlainValuePatch(
      value: number(json, "value", at: path + "value"),
      minValue: number(json, "min_value", at: path + "min_value"),
      maxValue: number(json, "max_value", at: path + "max_value"))
  }

  private mutating func shared(
    _ json: JSONValue, template: TemplatePatch, at path: String
  ) -> ContentPatch {
    var trend: Int32?
    if let text = string(json, "trend", at: path + "trend") {
      trend = EnumNames.trend(text)
      if trend == nil {
        problems.append("\(path)trend: \"\(text)\" is not one of \(EnumNames.trendList)")
      }
    }
    return ContentPatch(
      template: template,
      label: string(json, "label", at: path + "label"),
      subtitle: string(json, "subtitle", at: path + "subtitle"),
      icon: string(json, "icon", at: path + "icon"),
      unit: string(json, "unit", at: path + "unit"),
      trend: trend,
      accentColor: string(json, "accent_color", at: path + "accent_color"),
      backgroundColor: string(json, "background_color", at: path + "background_color"),
      textColor: string(json, "text_color", at: path + "text_color"))
  }

  private mutating func marks(_ json: JSONValue, at path: String) -> [MarkPatch]? {
    guard let value = json["marks"] else { return nil }
    guard case .array(let elements) = value else {
      problems.append("\(path): expected an array, got \(value.kind)")
      return nil
    }
    return elements.enumerated().map { index, element in
      let markPath = "\(path)[\(index)]."
      guard case .object = element else {
        problems.append("\(path)[\(index)]: expected an object, got \(element.kind)")
        return MarkPatch()
      }
      rejectUnknown(element, allowed: ["value", "label"], at: markPath)
      return MarkPatch(
        value: number(element, "value", at: markPath + "value"),
        label: string(element, "label", at: markPath + "label"))
    }
  }

  private mutating func rejectUnknown(_ json: JSONValue, allowed: [String], at path: String) {
    guard case .object(let members) = json else { return }
    for member in members where !allowed.contains(member.key) {
      problems.append("\(path)\(member.key): unknown field")
    }
  }

  private mutating func number(_ json: JSONValue, _ key: String, at path: String) -> Double? {
    switch json[key] {
    case nil, .null?: return nil
    case .number(let number)?: return number
    case let other?:
      problems.append("\(path): expected a number, got \(other.kind)")
      return nil
    }
  }

  private mutating func string(_ json: JSONValue, _ key: String, at path: String) -> String? {
    switch json[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    case .number? where key == "style":
      return nil  // a raw enum number, read by the caller
    case let other?:
      problems.append("\(path): expected a string, got \(other.kind)")
      return nil
    }
  }

  private mutating func strings(_ json: JSONValue, _ key: String, at path: String) -> [String]? {
    switch json[key] {
    case nil, .null?: return nil
    case .array(let elements)?:
      return elements.enumerated().compactMap { index, element in
        guard case .string(let text) = element else {
          problems.append("\(path)[\(index)]: expected a string, got \(element.kind)")
          return nil
        }
        return text
      }
    case let other?:
      problems.append("\(path): expected an array, got \(other.kind)")
      return nil
    }
  }
}
