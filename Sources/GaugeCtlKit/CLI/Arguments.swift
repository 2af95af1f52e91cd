/// A flag a command accepts. `takesValue` flags read the next argument (or
/// `--flag=value`); the others are switches.
public struct FlagSpec: Sendable {
  public var name: String
  public var short: Character?
  public var takesValue: Bool
  public var repeatable: Bool

  public init(_ name: String, short: Character? = nil, value: Bool = true, repeatable: Bool = false)
  {
    self.name = name
    self.short = short
    self.takesValue = value
    self.repeatable = repeatable
  }

  public static func toggle(_ name: String, short: Character? = nil) -> FlagSpec {
    FlagSpec(name, short: short, value: false)
  }
}

/// A command line split into positionals and flags, checked against the
/// flags a command accepts.
public struct Arguments: Sendable, Equatable {
  public var positionals: [String] = []
  /// Flag name to its values in order; a switch has one empty value.
  public private(set) var flags: [String: [String]] = [:]

  public init(positionals: [String] = [], flags: [String: [String]] = [:]) {
    self.positionals = positionals
    self.flags = flags
  }

  /// `--name value`, `--name=value`, `-x value`, switches, and `--` to end
  /// the flags. An argument that reads as a number ("-5", "-0.25") is a
  /// positional, so negative values need no `--`.
  public static func parse(_ arguments: [String], accepting specs: [FlagSpec]) throws(CLIError)
    -> Arguments
  {
    var result = Arguments()
    var rest = arguments[...]
    var flagsEnded = false
    while let argument = rest.popFirst() {
      if flagsEnded || !argument.hasPrefix("-") || argument == "-" || Double(argument) != nil {
        result.positionals.append(argument)
        continue
      }
      if argument == "--" {
        flagsEnded = true
        continue
      }
      var name: String
      var inline: String?
      let spec: FlagSpec?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inline = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        spec = specs.first { $0.name == name }
      } else {
        guard argument.count == 2 else {
          throw .usage("unknown option \(argument)")
        }
        spec = specs.first { $0.short == argument.last }
        name = spec?.name ?? argument
      }
      guard let spec else { throw .usage("unknown option \(argument)") }
      let value: String
      if spec.takesValue {
        guard let given = inline ?? rest.popFirst() else {
          throw .usage("--\(spec.name) needs a value")
        }
        value = given
      } else {
        if inline != nil { throw .usage("--\(spec.name) takes no value") }
        value = ""
      }
      if !spec.repeatable, result.flags[spec.name] != nil {
        throw .usage("--\(spec.name) is given more than once")
      }
      result.flags[spec.name, default: []].append(value)
    }
    return result
  }

  public func has(_ name: String) -> Bool { flags[name] != nil }

  /// The value of a single-valued flag.
  public func value(_ name: String) -> String? { flags[name]?.last }

  public func values(_ name: String) -> [String] { flags[name] ?? [] }

  /// A number flag; a usage error when it is not one. NaN and infinities
  /// pass: the server's rules judge values, and say why.
  public func number(_ name: String) throws(CLIError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let number = Double(text) else {
      throw .usage("--\(name): \"\(text)\" is not a number")
    }
    return number
  }
}
