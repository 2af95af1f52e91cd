import GaugeDomain
import GaugeIO
import GaugeJSON
import Glibc
import WidgetJSON

/// `gaugectl put ID --gauge V --min A --max B ...` or `put [ID] -f FILE`.
enum PutCommand: Command {
  static let name = "put"
  static let summary = "create or replace a widget"
  static let help = """
    Usage: gaugectl put ID --gauge VALUE --min MIN --max MAX [options]
           gaugectl put ID --progress FRACTION [options]
           gaugectl put ID --value VALUE [--min MIN] [--max MAX] [options]
           gaugectl put [ID] -f FILE          (FILE "-" reads standard input)

    Creates the widget, or replaces it whole. Every value is checked by the
    server; a rejected widget changes nothing and exits 1 naming each field.

    Options:
      --name TEXT            display name
      --unit U --label L --subtitle S --icon I
      --accent C --background C --text-color C   (red, orange, ..., or hex RRGGBB)
      --trend up|down|flat
      --style STYLE          gauge only: linear, linear_capacity, accessory_linear,
                             accessory_linear_capacity, accessory_circular,
                             accessory_circular_capacity, circular, automatic
      --mark VALUE[:LABEL]   gauge only, repeatable
      --gradient C1,C2,...   gauge only, 2 to 8 colours
      --min-label T --max-label T --value-label T   gauge only
      --stale-after DURATION marked stale when no write comes for this long
                             (1s to 7d: 30s, 5m, 1h)
      -f, --file FILE        the widget as JSON, as `gaugectl get --json` prints it
                             and GET /widgets/ID answers:
                             {"name": "CPU", "content": {"template": "gauge",
                              "value": 42, "min_value": 0, "max_value": 100, ...}}
                             or just the content: {"template": "value", "value": 21.5}
      --json                 print the stored widget as JSON
    """
  static let flags = WidgetFlags.specs + [FlagSpec("file", short: "f")]

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    let put: WidgetPut
    if let path = arguments.value("file") {
      if WidgetFlags.anyGiven(in: arguments) {
        throw .usage("-f describes the whole widget; leave out the field flags")
      }
      guard arguments.positionals.count <= 1 else {
        throw .usage("put takes at most one ID with -f")
      }
      let text = try readInput(path)
      let json: JSONValue
      do {
        json = try JSONParser.parse(text)
      } catch {
        throw .rejected("\(path == "-" ? "standard input" : path): not JSON: \(error)")
      }
      put = try WidgetJSONInput.put(json, id: arguments.positionals.first)
    } else {
      let id = try positionals(arguments, ["ID"])[0]
      put = try WidgetFlags.put(id: id, arguments)
    }
    let client = try WidgetClient(options)
    let (widget, created) = try client.put(put)
    if options.json {
      Console.out(JSONWriter.pretty(RESTWidgetJSON.json(widget)) + "\n")
    } else {
      Console.out(
        "\(created ? "created" : "replaced") \(widget.id): \(WidgetText.summary(widget.content)) "
          + "(revision \(widget.revision))\n")
    }
    return .ok
  }

  /// The whole file, or standard input for "-".
  static func readInput(_ path: String) throws(CLIError) -> String {
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw .rejected("cannot read \(path): \(IOError(call: "open", errno: errno))")
    }
    defer { if fd != 0 { Syscall.close(fd: fd) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let result = try? chunk.withUnsafeMutableBytes { buffer throws(IOError) in
        try Syscall.read(fd: fd, into: buffer)
      }
      guard case .processed(let count)? = result else {
        throw .rejected("cannot read \(path)")
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
      if bytes.count > 4 << 20 { throw .rejected("\(path): larger than 4 MiB") }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
