import GaugeIO

/// gauged's command line.
struct Options {
  var listen = "127.0.0.1:50051"
  var threads = 0
  var maxMessageBytes = 4 << 20
  var memoryOnly = false
  var compressResponses = false

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
      --memory                   Keep widgets in memory only. This is the only store
                                 in this version; a durable SQLite store is planned.
      --version                  Print the version and exit.
      -h, --help                 Print this help and exit.

    Signals: SIGTERM or SIGINT stops the server and exits 0.
    """

  enum ParseOutcome {
    case run(Options)
    case exit(code: Int32, message: String)
  }

  static func parse(_ arguments: [String]) -> ParseOutcome {
    var options = Options()
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
    return .run(options)
  }

  private static func missing(_ flag: String) -> ParseOutcome {
    .exit(code: 2, message: "gauged: \(flag) needs a value")
  }
}

let version = "0.1.0"
