import GaugeIO
import GaugeStore

/// gauged's command line.
struct Options {
  var listen = "127.0.0.1:50051"
  var threads = 0
  var maxMessageBytes = 4 << 20
  var memoryOnly = false
  var compressResponses = false
  var dataDirectory = "./gauged-data"
  var durability = Durability.relaxed
  var flushIntervalMs = 10
  var tombstoneRetentionMs: Int64 = 24 * 3_600_000

  static let usage = """
    gauged: keeps live widgets and serves gauge.v1.WidgetService over gRPC (h2c).

    Usage: gauged [options]

    Options:
      --listen HOST:PORT         Address to serve on (default 127.0.0.1:50051).
                                 Port 0 picks a free port; the bound address is
                                 printed on standard output once serving.
      --threads N                Event loops, one thread each (default: one per core).
      --max-message-bytes N      Largest request message accepted (default 4194304),
                                 before and after decompression.
      --compress-responses       Gzip response messages for clients whose
                                 grpc-accept-encoding lists gzip (default: off).
                                 Gzip requests are accepted either way.
      --data-dir DIR             Keep widgets in DIR/gauged.sqlite3 (SQLite, WAL mode),
                                 creating DIR when missing (default ./gauged-data).
                                 One gauged per DIR: a second exits at start.
      --memory                   Keep widgets in memory only; nothing survives a
                                 restart, and revisions start at the Unix time in
                                 microseconds so old resume points get a reset.
      --durability MODE          When a write is acknowledged (default relaxed):
                                   strict   after the transaction holding it has
                                            committed with synchronous=FULL;
                                   relaxed  once applied in memory; it reaches the
                                            file within the flush interval, so a
                                            crash loses at most that window.
                                 SIGTERM/SIGINT flush everything in both modes.
      --flush-interval-ms N      Relaxed mode: how long changes gather before one
                                 commit writes them (default 10, at most 60000).
      --tombstone-retention D    How long removals are remembered for resuming
                                 subscribers, as 24h, 30m, 90s, 500ms or 7d
                                 (default 24h).
      --version                  Print the version and exit.
      -h, --help                 Print this help and exit.

    Signals: SIGTERM or SIGINT stops the server, flushes the store and exits 0
    (1 when the last changes could not be written).

    If the disk fills up or fails, writes fail with UNAVAILABLE (reads keep
    working) until a retried commit succeeds.
    """

  enum ParseOutcome {
    case run(Options)
    case exit(code: Int32, message: String)
  }

  static func parse(_ arguments: [String]) -> ParseOutcome {
    var options = Options()
    var diskFlags: [String] = []
    var rest = arguments[...]
    func value(for flag: String) -> String? {
      guard let next = rest.popFirst() else { return nil }
      return next
    }
    while let argument = rest.popFirst() {
      var flag = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        flag = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func required() -> String? { inline ?? value(for: flag) }
      switch flag {
      case "-h", "--help":
        return .exit(code: 0, message: usage)
      case "--version":
        return .exit(code: 0, message: "gauged \(version)")
      case "--memory":
        options.memoryOnly = true
      case "--compress-responses":
        options.compressResponses = true
      case "--data-dir":
        guard let text = required(), !text.isEmpty else { return missing(flag) }
        options.dataDirectory = text
        diskFlags.append(flag)
      case "--durability":
        guard let text = required() else { return missing(flag) }
        guard let durability = Durability(rawValue: text) else {
          return .exit(
            code: 2, message: "gauged: --durability: \"\(text)\" is not strict or relaxed")
        }
        options.durability = durability
        diskFlags.append(flag)
      case "--flush-interval-ms":
        guard let text = required() else { return missing(flag) }
        guard let milliseconds = Int(text), (0...60_000).contains(milliseconds) else {
          return .exit(
            code: 2, message: "gauged: --flush-interval-ms: \"\(text)\" is not 0...60000")
        }
        options.flushIntervalMs = milliseconds
        diskFlags.append(flag)
      case "--tombstone-retention":
        guard let text = required() else { return missing(flag) }
        guard let milliseconds = DurationText.milliseconds(text) else {
          return .exit(
            code: 2,
            message:
              "gauged: --tombstone-retention: \"\(text)\" is not a duration like 24h, 30m, 90s, "
              + "500ms or 7d (at most 3650d)")
        }
        options.tombstoneRetentionMs = milliseconds
      case "--listen":
        guard let text = required() else { return missing(flag) }
        guard (try? SocketAddress(parsing: text)) != nil else {
          return .exit(code: 2, message: "gauged: --listen: \"\(text)\" is not HOST:PORT")
        }
        options.listen = text
      case "--threads":
        guard let text = required() else { return missing(flag) }
        guard let count = Int(text), (0...256).contains(count) else {
          return .exit(code: 2, message: "gauged: --threads: \"\(text)\" is not 0...256")
        }
        options.threads = count
      case "--max-message-bytes":
        guard let text = required() else { return missing(flag) }
        guard let bytes = Int(text), bytes > 0, bytes <= Int(Int32.max) else {
          return .exit(
            code: 2, message: "gauged: --max-message-bytes: \"\(text)\" is not a positive size")
        }
        options.maxMessageBytes = bytes
      default:
        return .exit(code: 2, message: "gauged: unknown option \(argument)\n\n\(usage)")
      }
    }
    if options.memoryOnly, let flag = diskFlags.first {
      return .exit(code: 2, message: "gauged: \(flag) has no effect with --memory")
    }
    return .run(options)
  }

  private static func missing(_ flag: String) -> ParseOutcome {
    .exit(code: 2, message: "gauged: \(flag) needs a value")
  }
}

let version = "0.1.0"
