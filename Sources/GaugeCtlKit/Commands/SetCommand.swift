import GaugeDomain
import GaugeJSON
import WidgetJSON

/// `gaugectl set ID VALUE`: UpdateWidget with only the value.
enum SetCommand: Command {
  static let name = "set"
  static let summary = "set a widget's value"
  static let help = """
    Usage: gaugectl set ID VALUE

    Sets the main value of an existing widget and keeps everything else
    (UpdateWidget with only content.<template>.value). The value must fit the
    widget's bounds.

    Options:
      --json                 print the updated widget as JSON
    """
  static let flags: [FlagSpec] = []

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    let given = try positionals(arguments, ["ID", "VALUE"])
    let id = given[0]
    guard let value = Double(given[1]) else {
      throw .usage("set: \"\(given[1])\" is not a number")
    }
    let client = try WidgetClient(options)
    // UpdateWidget names the template; the widget's current one is kept.
    let current = try client.get(id: id, doing: "set \(id)")
    let template: TemplatePatch =
      switch current.content.template {
      case .gauge: .gauge(GaugePatch(value: value))
      case .progress: .progress(ProgressPatch(value: value))
      case .value: .value(PlainValuePatch(value: value))
      }
    let widget = try client.update(
      WidgetUpdate(id: id, content: ContentPatch(template: template)))
    if options.json {
      Console.out(JSONWriter.pretty(RESTWidgetJSON.json(widget)) + "\n")
    } else {
      Console.out(
        "\(widget.id) = \(WidgetText.value(widget.content)) (revision \(widget.revision))\n")
    }
    return .ok
  }
}
