import GaugeDomain
import GaugeIO
import GaugeNATS
import GaugeNATSStore
import GaugeStore
import WidgetJSON

/// `gauged export --data-dir DIR` (or `--nats URL ...`): every widget on
/// standard output, one JSON object per line in id order, for `gauged
/// import` to load into another store.
enum ExportCommand {
  static let usage = """
    Usage: gauged export \(StoreLocation.usage)

    Writes every widget of the store to standard output, one JSON object per
    line (as the REST face shows a widget), for gauged import. No gauged may be
    running on a data directory.
    """

  /// The exit status; the widgets go to standard output, problems to
  /// standard error.
  static func run(_ arguments: [String]) -> Int32 {
    guard !arguments.isEmpty, arguments != ["--help"], arguments != ["-h"] else {
      LineConsole.error(usage)
      return 2
    }
    let location: StoreLocation
    switch StoreLocation.parse(arguments, command: "export") {
    case .location(let parsed): location = parsed
    case .invalid(let message):
      LineConsole.error("\(message)\n\n\(usage)")
      return 2
    }
    let widgets: [Widget]
    do {
      widgets = try read(location)
    } catch {
      LineConsole.error("gauged export: \(error)")
      return 1
    }
    var lines: [UInt8] = []
    for widget in widgets { lines += WidgetExportLine.bytes(widget) }
    if let failure = Syscall.writeAllReportingFailure(String(decoding: lines, as: UTF8.self), to: 1)
    {
      LineConsole.error("gauged export: cannot write to standard output: \(failure)")
      return 1
    }
    LineConsole.error("gauged export: \(widgets.count) widgets from \(location.description)")
    return 0
  }

  private static func read(_ location: StoreLocation) throws -> [Widget] {
    switch location {
    case .dataDirectory(let path):
      return try OfflineWidgets.read(dataDirectory: path)
    case .nats(let options):
      let bucket = try NATSKeyValueBucket(options: options.connection, bucket: options.bucket)
      defer { bucket.close() }
      return try BucketWidgets.read(bucket)
    }
  }
}
