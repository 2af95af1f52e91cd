import GaugeDomain

enum SampleWidgets {
  static let gauge = Widget(
    id: "cpu-1", name: "CPU load",
    content: Content(
      template: .gauge(
        Gauge(
          value: 42.5, minValue: -10, maxValue: 100, style: .accessoryCircularCapacity,
          gradient: ["green", "#FF0000"],
          marks: [Mark(value: 10, label: "low"), Mark(value: 90)],
          currentValueLabel: "42.5 %", minLabel: "", maxLabel: "max")),
      label: "CPU", subtitle: "all cores", icon: "cpu", unit: "%", trend: .down,
      accentColor: "red", backgroundColor: "#000000", textColor: "white"),
    revision: 17, createdAtMs: 1_700_000_000_000, updatedAtMs: -1, staleAfterMs: 30_000,
    stale: true)

  static let progress = Widget(
    id: "p", name: "Progress",
    content: Content(template: .progress(Progress(value: 0.25))),
    revision: 1, createdAtMs: 0, updatedAtMs: 0)

  static let value = Widget(
    id: "v", name: "Value",
    content: Content(template: .value(PlainValue(value: 3, maxValue: 8))),
    revision: 2, createdAtMs: 5, updatedAtMs: 6, staleAfterMs: 1000)
}
