/// One JSON object on one line, keys in the order added: what every
/// scenario prints for `scripts/bench` to read.
struct JSONLine: CustomStringConvertible {
  private var fields: [(key: String, json: String)] = []

  mutating func add(_ key: String, _ value: Int) {
    fields.append((key, String(value)))
  }

  mutating func add(_ key: String, _ value: UInt64) {
    fields.append((key, String(value)))
  }

  /// Rounded to `decimals`; NaN and infinities become null.
  mutating func add(_ key: String, _ value: Double, decimals: Int = 1) {
    guard value.isFinite else { return fields.append((key, "null")) }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    let text =
      rounded == rounded.rounded() && abs(rounded) < 1e15
      ? String(Int64(rounded)) : String(rounded)
    fields.append((key, text))
  }

  mutating func add(_ key: String, _ value: Bool) {
    fields.append((key, value ? "true" : "false"))
  }

  mutating func add(_ key: String, _ value: String) {
    fields.append((key, Self.quoted(value)))
  }

  /// Latency figures in microseconds under `prefix_p50_us` and so on.
  mutating func add(latency histogram: LatencyHistogram, prefix: String) {
    add("\(prefix)p50_us", Double(histogram.percentile(0.50)) / 1000)
    add("\(prefix)p90_us", Double(histogram.percentile(0.90)) / 1000)
    add("\(prefix)p99_us", Double(histogram.percentile(0.99)) / 1000)
    add("\(prefix)p999_us", Double(histogram.percentile(0.999)) / 1000)
    add("\(prefix)max_us", Double(histogram.max) / 1000)
  }

  var description: String {
    "{" + fields.map { "\(Self.quoted($0.key)): \($0.json)" }.joined(separator: ", ") + "}"
  }

  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
