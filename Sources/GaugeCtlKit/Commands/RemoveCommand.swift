import GaugeJSON

/// `gaugectl rm ID...`.
enum RemoveCommand: Command {
  static let name = "rm"
  static let summary = "delete widgets"
  static let help = """
    Usage: gaugectl rm ID [ID...]

    Deletes each widget in turn and stops at the first that fails; those
    removed before it are still reported.

    Options:
      --json                 {"removed": [ids]}
    """
  static let flags: [FlagSpec] = []

  static func run(_ arguments: Arguments, _ options: GlobalOptions, _ environment: [String: String])
    throws(CLIError) -> ExitCode
  {
    guard !arguments.positionals.isEmpty else { throw .usage("rm needs ID") }
    let client = try WidgetClient(options)
    var removed: [String] = []
    for id in arguments.positionals {
      do {
        try client.delete(id: id)
      } catch {
        // What was removed before the failure is reported all the same.
        if !removed.isEmpty { report(removed, json: options.json) }
        throw error
      }
      removed.append(id)
    }
    report(removed, json: options.json)
    return .ok
  }

  private static func report(_ removed: [String], json: Bool) {
    if json {
      Console.out(
        JSONWriter.pretty(.object([("removed", .array(removed.map(JSONValue.string)))])) + "\n")
    } else {
      Console.out(removed.map { "removed \($0)\n" }.joined())
    }
  }
}
