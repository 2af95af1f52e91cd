import GaugeDomain
import GaugeIO
import GaugeNATS
import GaugeNATSStore
import GaugeStore
import WidgetJSON

/// `gauged import --nats URL ...` (or `--data-dir DIR`): loads the widgets
/// `gauged export` wrote, from standard input, keeping their ids, content
/// and timestamps; the store gives them revisions of its own. Every line
/// is checked before anything is written, so a bad line writes nothing.
enum ImportCommand {
  static let usage = """
    Usage: gauged import \(StoreLocation.usage) < widgets.jsonl

    Reads widgets from standard input, one JSON object per line as gauged export
    writes them, and stores each with its id, content and timestamps, replacing a
    widget of the same id. The NATS bucket is created when missing. No gauged may
    be running on a data directory; gauged instances on a bucket see the widgets
    arrive.
    """

  static func run(_ arguments: [String], readLine: () -> String?) -> Int32 {
    guard !arguments.isEmpty, arguments != ["--help"], arguments != ["-h"] else {
      LineConsole.error(usage)
      return 2
    }
    let location: StoreLocation
    switch StoreLocation.parse(arguments, command: "import") {
    case .location(let parsed): location = parsed
    case .invalid(let message):
      LineConsole.error("\(message)\n\n\(usage)")
      return 2
    }
    var widgets: [Widget] = []
    var lineNumber = 0
    while let line = readLine() {
      lineNumber += 1
      guard line.contains(where: { !$0.isWhitespace }) else { continue }
      switch WidgetExportLine.widget(line) {
      case .success(let widget): widgets.append(widget)
      case .failure(let error):
        LineConsole.error("gauged import: line \(lineNumber): \(error); nothing imported")
        return 1
      }
    }
    do {
      try write(widgets, to: location)
    } catch {
      LineConsole.error("gauged import: \(error)")
      return 1
    }
    LineConsole.error("gauged import: \(widgets.count) widgets into \(location.description)")
    return 0
  }

  private static func write(_ widgets: [Widget], to location: StoreLocation) throws {
    switch location {
    case .dataDirectory(let path):
      try OfflineWidgets.write(widgets, dataDirectory: path)
    case .nats(let options):
      let bucket = try NATSKeyValueBucket(options: options.connection, bucket: options.bucket)
      defer { bucket.close() }
      for widget in widgets { _ = try BucketWidgets.write(widget, to: bucket) }
    }
  }
}
