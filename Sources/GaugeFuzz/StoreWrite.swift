import GaugeDomain

/// One write the store harness applies to both stores.
enum StoreWrite: CustomStringConvertible {
  case put(WidgetPut)
  case update(WidgetUpdate)
  case templateValue(TemplateValueUpdate)
  case setValue(id: String, value: Double)
  case setValues([ValueSet])
  case delete(id: String)

  /// What a store answered, comparable between the two stores.
  enum Outcome: Equatable {
    case widget(Widget)
    case rejected(WidgetError)
    case batch([ValueSetRejection])
    case deleted
  }

  func apply(to store: InMemoryWidgetStore) -> Outcome {
    do throws(WidgetError) {
      switch self {
      case .put(let request): return .widget(try store.put(request).widget)
      case .update(let request): return .widget(try store.update(request))
      case .templateValue(let request): return .widget(try store.update(request))
      case .setValue(let id, let value): return .widget(try store.setValue(value, id: id))
      case .setValues(let values): return .batch(store.setValues(values))
      case .delete(let id):
        try store.delete(id: id)
        return .deleted
      }
    } catch {
      return .rejected(error)
    }
  }

  var description: String {
    switch self {
    case .put(let request): "put \(request)"
    case .update(let request): "update \(request)"
    case .templateValue(let request): "template value \(request)"
    case .setValue(let id, let value): "set \(id) to \(value)"
    case .setValues(let values): "set values \(values)"
    case .delete(let id): "delete \(id)"
    }
  }
}

/// Turns input bytes into writes over a handful of ids, so that writes
/// meet the same widgets often, with numbers and strings near the rules'
/// edges (bounds, NaN, lengths, colours).
struct WriteGenerator {
  static let ids = ["a", "b", "c", "gauge/1", ""]
  static let numbers: [Double] = [
    0, 1, -1, 0.5, 100, 101, -0.0, .nan, .infinity, -.infinity, 1e308, -1e308,
    .leastNonzeroMagnitude, 42,
  ]
  static let texts: [String?] = [
    nil, "", "CPU", "°C", "red", "#FF8800", "#12345678", "not a colour", "cpu",
    String(repeating: "x", count: 257), "é\u{301}", "\u{0}",
  ]
  static let clearable = [
    "name", "content.label", "content.subtitle", "content.unit", "content.accent_color",
    "content.gauge.marks", "content.gauge.min_label", "content.value.min_value",
    "content.value.max_value", "content.gauge", "nonsense",
  ]

  func write(_ operation: UInt8, _ input: inout FuzzInput) -> StoreWrite {
    switch operation % 8 {
    case 0, 1:
      return .put(WidgetPut(id: id(&input), name: text(&input), content: content(&input)))
    case 2:
      var clear: [String] = []
      for _ in 0..<Int((input.byte() ?? 0) % 3) {
        clear.append(Self.clearable[Int(input.byte() ?? 0) % Self.clearable.count])
      }
      return .update(
        WidgetUpdate(
          id: id(&input), name: text(&input), content: content(&input), clearFields: clear))
    case 3:
      let kinds: [TemplateKind] = [.gauge, .progress, .value]
      return .templateValue(
        TemplateValueUpdate(
          id: id(&input), kind: kinds[Int(input.byte() ?? 0) % 3], value: number(&input)))
    case 4:
      return .setValue(id: id(&input), value: number(&input))
    case 5:
      var values: [ValueSet] = []
      for _ in 0..<Int((input.byte() ?? 0) % 9) {
        values.append(ValueSet(id: id(&input), value: number(&input)))
      }
      return .setValues(values)
    default:
      return .delete(id: id(&input))
    }
  }

  private func id(_ input: inout FuzzInput) -> String {
    Self.ids[Int(input.byte() ?? 0) % Self.ids.count]
  }

  /// A number from the table, or one built from the byte itself.
  private func number(_ input: inout FuzzInput) -> Double {
    let byte = input.byte() ?? 0
    if byte < 128 { return Double(Int(byte) - 28) }
    return Self.numbers[Int(byte) % Self.numbers.count]
  }

  private func text(_ input: inout FuzzInput) -> String? {
    Self.texts[Int(input.byte() ?? 0) % Self.texts.count]
  }

  private func content(_ input: inout FuzzInput) -> ContentPatch? {
    let shape = input.byte() ?? 0
    let template: TemplatePatch?
    switch shape % 5 {
    case 0:
      template = nil
    case 1:
      template = .gauge(
        GaugePatch(
          value: number(&input), minValue: number(&input), maxValue: number(&input),
          marks: shape & 0x10 != 0 ? [MarkPatch(value: number(&input), label: text(&input))] : nil,
          minLabel: text(&input)))
    case 2:
      template = .progress(ProgressPatch(value: number(&input)))
    case 3:
      template = .value(
        PlainValuePatch(
          value: number(&input), minValue: shape & 0x20 != 0 ? number(&input) : nil,
          maxValue: shape & 0x40 != 0 ? number(&input) : nil))
    default:
      // A template with nothing set: merges keep what is stored.
      template = .gauge(GaugePatch())
    }
    if shape & 0x80 != 0, template == nil { return nil }
    return ContentPatch(
      template: template, label: text(&input), unit: text(&input), accentColor: text(&input))
  }
}
