import GaugeIO
import GaugeJSON
import Glibc

/// gauged's log: one line per event on standard error, each written whole
/// (`LineConsole`), in the chosen format, for events at or above the level.
/// A value: every thread may hold and use one.
public struct EventLog: Sendable {
  public var format: LogFormat
  public var level: LogLevel
  /// Where finished lines go; standard error unless a test says otherwise.
  private let sink: @Sendable (String) -> Void

  public init(
    format: LogFormat, level: LogLevel,
    sink: @escaping @Sendable (String) -> Void = { LineConsole.error($0) }
  ) {
    self.format = format
    self.level = level
    self.sink = sink
  }

  /// What gauged logs before its flags are read: text, info and up.
  public static let standard = EventLog(format: .text, level: .info)

  /// Where this log's lines go, for a log of another level on the same sink.
  public var sinkFunction: @Sendable (String) -> Void { sink }

  public func enabled(_ level: LogLevel) -> Bool { level >= self.level }

  /// `event` names what happened in one word (`start`, `listen_failed`);
  /// `message` says it for a person.
  public func log(
    _ level: LogLevel, _ event: String, _ message: String, _ fields: [LogField] = []
  ) {
    guard enabled(level) else { return }
    sink(line(level, event, message, fields, unixMicroseconds: Self.now()))
  }

  public func error(_ event: String, _ message: String, _ fields: [LogField] = []) {
    log(.error, event, message, fields)
  }

  public func warn(_ event: String, _ message: String, _ fields: [LogField] = []) {
    log(.warn, event, message, fields)
  }

  public func info(_ event: String, _ message: String, _ fields: [LogField] = []) {
    log(.info, event, message, fields)
  }

  public func debug(_ event: String, _ message: String, _ fields: [LogField] = []) {
    log(.debug, event, message, fields)
  }

  func line(
    _ level: LogLevel, _ event: String, _ message: String, _ fields: [LogField],
    unixMicroseconds: Int64
  ) -> String {
    let time = Self.timestamp(unixMicroseconds: unixMicroseconds)
    switch format {
    case .json:
      var out = "{\"time\":\"\(time)\",\"level\":\"\(level.name)\",\"event\":"
      out += JSONWriter.quoted(event)
      out += ",\"msg\":"
      out += JSONWriter.quoted(message)
      for field in fields {
        out += ","
        out += JSONWriter.quoted(field.key)
        out += ":"
        switch field.value {
        case .text(let text): out += JSONWriter.quoted(text)
        case .integer(let integer): out += String(integer)
        case .number(let number):
          out += number.isFinite ? JSONWriter.format(number) : JSONWriter.quoted(String(number))
        case .flag(let flag): out += flag ? "true" : "false"
        }
      }
      return out + "}"
    case .text:
      var out = "\(time) \(level.name) \(event) \(Self.oneLine(message))"
      for field in fields {
        out += " \(field.key)="
        switch field.value {
        case .text(let text): out += Self.textValue(text)
        case .integer(let integer): out += String(integer)
        case .number(let number): out += String(number)
        case .flag(let flag): out += flag ? "true" : "false"
        }
      }
      return out
    }
  }

  /// Quoted when it holds a space, a quote or an equals sign, so the
  /// line still splits into its fields.
  private static func textValue(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && !text.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 }
    return plain ? text : JSONWriter.quoted(text)
  }

  /// A message with a line break would break the one-line-per-event rule.
  private static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
    return text.replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\r", with: " ")
  }

  private static func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
  }

  /// RFC 3339 in UTC with milliseconds.
  static func timestamp(unixMicroseconds: Int64) -> String {
    var seconds = time_t(unixMicroseconds / 1_000_000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let milliseconds = Int32((unixMicroseconds % 1_000_000) / 1000)
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
      + ".\(pad(milliseconds, 3))Z"
  }
}
