import GaugeCtlKit
import GaugeDomain
import GaugeJSON
import WidgetJSON

/// Runs an input as a document for gaugectl's JSON readers (what `put -f`
/// and `publish` read from files and pipes). A reader may refuse anything,
/// with a message; what it accepts must come back unchanged through the
/// writers: the JSON value through both of `JSONWriter`'s styles, and a
/// widget the server would store through `RESTWidgetJSON` (what `get
/// --json` prints and `GET /widgets/{id}` answers) and `put -f` again.
public enum JSONHarness {
  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
    // Publish lines: any of them may be refused, none may trap.
    _ = RESTValueLines.parse(text, format: .eitherPerLine)
    let value: JSONValue
    do {
      value = try JSONParser.parse(text)
    } catch {
      if error.description.isEmpty { throw FuzzFinding("a refusal without a message") }
      return
    }
    for (style, written) in [
      ("compact", JSONWriter.compact(value)), ("pretty", JSONWriter.pretty(value)),
    ] {
      guard try read(written, "the \(style) writer's") == value else {
        throw FuzzFinding("the \(style) writer's \(written) reads back as something else")
      }
    }
    try widgetReadsBack(value)
  }

  /// The put `value` describes, when gaugectl and the server accept it,
  /// printed as a stored widget and read again, stores the same widget.
  private static func widgetReadsBack(_ value: JSONValue) throws(FuzzFinding) {
    let put: WidgetPut
    do {
      put = try WidgetJSONInput.put(value, id: nil)
    } catch {
      if error.lines.count < 2 { throw FuzzFinding("a widget refused without a reason") }
      return
    }
    guard let stored = stored(put) else { return }  // the server's rules refuse it
    for (style, written) in [
      ("compact", JSONWriter.compact(RESTWidgetJSON.json(stored))),
      ("pretty", JSONWriter.pretty(RESTWidgetJSON.json(stored))),
    ] {
      let reread = try read(written, "the widget's \(style)")
      let again: WidgetPut
      do {
        again = try WidgetJSONInput.put(reread, id: nil)
      } catch {
        throw FuzzFinding("\(written) is refused by put -f: \(error.lines)")
      }
      guard let restored = self.stored(again) else {
        throw FuzzFinding("\(written) reads back as a widget the server refuses")
      }
      guard restored == stored else {
        throw FuzzFinding("\(written) reads back as another widget: \(restored)")
      }
    }
  }

  /// The widget a fresh store keeps for `put`, nil when it refuses it.
  private static func stored(_ put: WidgetPut) -> Widget? {
    var table = WidgetTable()
    guard case .upserted(let widget, _)? = try? table.put(put, now: 1_700_000_000_000) else {
      return nil
    }
    return widget
  }

  private static func read(_ written: String, _ what: String) throws(FuzzFinding) -> JSONValue {
    do {
      return try JSONParser.parse(written)
    } catch {
      throw FuzzFinding("\(what) \(written) does not read back: \(error)")
    }
  }
}
