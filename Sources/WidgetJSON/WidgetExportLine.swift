import GaugeDomain
import GaugeJSON

/// One widget per line, as `gauged export` writes and `gauged import`
/// reads: the REST face's widget JSON (`RESTWidgetJSON`), which carries
/// the id, name, content, stale settings and both timestamps. The revision
/// is the source store's; the store imported into numbers its own.
package enum WidgetExportLine {
  package static func bytes(_ widget: Widget) -> [UInt8] {
    RESTWidgetJSON.bytes(widget) + [UInt8(ascii: "\n")]
  }

  /// The widget a line describes, validated by the domain's rules as a PUT
  /// would be, with its timestamps and stale flag; or why it is not one.
  package static func widget(_ line: String) -> Result<Widget, WidgetExportLineError> {
    let json: JSONValue
    do {
      json = try JSONParser.parse(line)
    } catch {
      return .failure(WidgetExportLineError("not JSON: \(error)"))
    }
    let request: WidgetPut
    switch RESTWidgetReader.replacement(json, id: nil) {
    case .success(let read): request = read
    case .failure(let invalid):
      let fields = invalid.violations.map { "\($0.field) \($0.description)" }
      return .failure(WidgetExportLineError("not a widget: " + fields.joined(separator: "; ")))
    }
    guard case .string(let created)? = json["created_at"],
      let createdAtMs = RFC3339Time.unixMilliseconds(created)
    else {
      return .failure(WidgetExportLineError("created_at: missing, or not a time gauged wrote"))
    }
    guard case .string(let updated)? = json["updated_at"],
      let updatedAtMs = RFC3339Time.unixMilliseconds(updated)
    else {
      return .failure(WidgetExportLineError("updated_at: missing, or not a time gauged wrote"))
    }
    var table = WidgetTable()
    var widget: Widget
    do throws(WidgetError) {
      _ = try table.put(request, now: updatedAtMs)
      widget = try table.get(id: request.id ?? "")
    } catch {
      return .failure(WidgetExportLineError("not a valid widget: \(error.message)"))
    }
    widget.createdAtMs = createdAtMs
    widget.updatedAtMs = updatedAtMs
    if case .bool(let stale)? = json["stale"] { widget.stale = stale && widget.staleAfterMs != nil }
    return .success(widget)
  }
}

/// Why a line of an export is not a widget.
package struct WidgetExportLineError: Error, CustomStringConvertible {
  package let description: String

  init(_ description: String) {
    self.description = description
  }
}
