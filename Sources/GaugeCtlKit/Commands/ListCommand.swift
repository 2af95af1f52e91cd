import GaugeIO
import GaugeJSON
import WidgetJSON

/// `gaugectl ls [PREFIX]`.
enum ListCommand: Command {
  static let name = "ls"
  static let summary = "list widgets, optionally those whose id starts with PREFIX"
  static let help = """
    Usage: gaugectl ls [PREFIX]

    Lists every widget (ordered by id), or those whose id starts with PREFIX.

    Options:
      --json                 a JSON array of widgets
    """
  static let flags: [FlagSpec] = []

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    guard arguments.positionals.count <= 1 else {
      throw .usage("ls takes at most one PREFIX")
    }
    let widgets = try WidgetClient(options).list(prefix: arguments.positionals.first ?? "")
    if options.json {
      Console.out(JSONWriter.pretty(.array(widgets.map(RESTWidgetJSON.json))) + "\n")
    } else {
      let palette = Palette(
        ColorMode.detect(environment: environment, isTerminal: Syscall.isTerminal(fd: 1)))
      Console.out(
        WidgetText.table(
          widgets, nowMs: WallClock(environment: environment).nowMs, palette: palette))
    }
    return .ok
  }
}
