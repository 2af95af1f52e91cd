import GaugeJSON
import WidgetJSON

/// `gaugectl get ID`.
enum GetCommand: Command {
  static let name = "get"
  static let summary = "show one widget"
  static let help = """
    Usage: gaugectl get ID

    Options:
      --json                 the widget as JSON, as GET /widgets/ID answers
                             (what `put -f` reads)
    """
  static let flags: [FlagSpec] = []

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    let id = try positionals(arguments, ["ID"])[0]
    let widget = try WidgetClient(options).get(id: id)
    if options.json {
      Console.out(JSONWriter.pretty(RESTWidgetJSON.json(widget)) + "\n")
    } else {
      Console.out(WidgetText.details(widget, nowMs: WallClock(environment: environment).nowMs))
    }
    return .ok
  }
}
