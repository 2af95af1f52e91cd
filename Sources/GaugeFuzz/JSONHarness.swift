import GaugeCtlKit
import GaugeJSON

/// Runs an input as a document for gaugectl's JSON reader (what `put
/// --json` and `publish` read from files and pipes). The reader may refuse
/// anything, with a message; what it accepts must come back unchanged
/// through both of gaugectl's writers.
public enum JSONHarness {
  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
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
      let again: JSONValue
      do {
        again = try JSONParser.parse(written)
      } catch {
        throw FuzzFinding("the \(style) writer's \(written) does not read back: \(error)")
      }
      guard again == value else {
        throw FuzzFinding("the \(style) writer's \(written) reads back as something else")
      }
    }
  }
}
