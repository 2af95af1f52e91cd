import GaugeDomain
import GaugeJSON
import WidgetJSON

/// `gaugectl put [ID] -f widget.json`: a widget in the REST shape, as
/// `gaugectl get --json` prints it and `GET /widgets/{id}` answers:
/// `{"id": "cpu", "name": ..., "content": {"template": "gauge", "value": 42,
/// "min_value": 0, "max_value": 100, "unit": "%", ...}}` (server-set fields
/// such as `revision` are ignored). The REST face's reader reads it, so
/// gaugectl and the server accept the same documents and name the same
/// fields.
///
/// Two older shapes still work, turned into that one first, with enum
/// names in any case (`LINEAR`, `accessory-circular`) as before:
/// - flat, the content's fields at the top beside `id` and `name`:
///   `{"template": "value", "value": 21.5, "unit": "°C"}`; problems name
///   the fields as written there (`value`, not `content.value`);
/// - nested, as `get --json` printed widgets before it printed the REST
///   shape: `{"content": {"gauge": {"value": 42, ...}, "unit": "%"},
///   "created_at_ms": ...}`, so that files saved from it still load.
///
/// Values themselves are left to the server's rules.
package enum WidgetJSONInput {
  /// `id` is the one on the command line, which the JSON's must match.
  package static func put(_ json: JSONValue, id: String?) throws(CLIError) -> WidgetPut {
    guard case .object(let members) = json else {
      throw .rejected("the widget JSON is not usable:", ["must be an object, got \(json.kind)"])
    }
    var problems: [String] = []
    if let id, case .string(let given)? = json["id"], given != id {
      problems.append(
        "id: \(JSONWriter.quoted(given)) differs from the id on the command line, "
          + JSONWriter.quoted(id))
    }
    let shape = Shape(of: json)
    switch RESTWidgetReader.replacement(shape.restShape(members), id: nil) {
    case .success(var put):
      put.id = id ?? put.id
      if put.id == nil { problems.append("id: give it on the command line or in the JSON") }
      guard problems.isEmpty else { throw .rejected("the widget JSON is not usable:", problems) }
      return put
    case .failure(let invalid):
      problems += invalid.violations.map { "\(shape.path($0.field)): \($0.description)" }
      throw .rejected("the widget JSON is not usable:", problems)
    }
  }

  private enum Shape {
    case rest
    case flat
    case nested(template: String)

    init(of json: JSONValue) {
      guard let content = json["content"] else {
        self = .flat
        return
      }
      // In the REST shape a template's fields are numbers and strings;
      // nested, the template is an object named for it.
      let templates = ["gauge", "progress", "value"].filter {
        if case .object? = content[$0] { true } else { false }
      }
      if content["template"] == nil, templates.count == 1 {
        self = .nested(template: templates[0])
      } else {
        self = .rest
      }
    }

    func restShape(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
      switch self {
      case .rest:
        return .object(members)
      case .flat:
        let outer = members.filter { $0.key == "id" || $0.key == "name" }
        let content = members.filter { $0.key != "id" && $0.key != "name" }
        return .object(outer + [("content", .object(content.map(Self.schemaSpelling)))])
      case .nested(let template):
        var outer: [(key: String, value: JSONValue)] = []
        for (key, value) in members where key != "created_at_ms" && key != "updated_at_ms" {
          guard key == "content", case .object(let content) = value else {
            outer.append((key, value))
            continue
          }
          var flat: [(key: String, value: JSONValue)] = [("template", .string(template))]
          for (key, value) in content {
            if key == template, case .object(let fields) = value {
              flat += fields
            } else {
              flat.append((key, value))
            }
          }
          outer.append(("content", .object(flat.map(Self.schemaSpelling))))
        }
        return .object(outer)
      }
    }

    /// A REST path as the input spelled it.
    func path(_ restPath: String) -> String {
      guard restPath.hasPrefix("content.") else { return restPath }
      switch self {
      case .rest:
        return restPath
      case .flat:
        return String(restPath.dropFirst("content.".count))
      case .nested(let template):
        let field = restPath.dropFirst("content.".count).prefix { $0 != "." && $0 != "[" }
        guard let kind = RESTContentFields.kind(named: template),
          RESTContentFields.of(kind).contains(String(field))
        else { return restPath }
        return "content.\(template)." + restPath.dropFirst("content.".count)
      }
    }

    /// Older shapes took enum names in any case and spelling, and style
    /// numbers: they become the schema's names the REST reader takes.
    /// Unknown ones are left for it to report.
    private static func schemaSpelling(_ member: (key: String, value: JSONValue)) -> (
      key: String, value: JSONValue
    ) {
      switch (member.key, member.value) {
      case ("style", .string(let text)):
        guard let raw = EnumNames.style(text), let style = GaugeStyle(rawValue: raw) else {
          return member
        }
        return (member.key, .string(style.schemaName))
      case ("style", .number(let number)):
        guard let raw = Int32(exactly: number), let style = GaugeStyle(rawValue: raw) else {
          return member
        }
        return (member.key, .string(style.schemaName))
      case ("trend", .string(let text)):
        guard let raw = EnumNames.trend(text), let trend = Trend(rawValue: raw),
          trend != .unspecified
        else { return member }
        return (member.key, .string(trend.schemaName))
      default:
        return member
      }
    }
  }
}
