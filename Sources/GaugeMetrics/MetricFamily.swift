/// One metric as a scrape shows it: a name, its help and kind, and a series
/// per set of label values. Built at scrape time from the counters, never
/// kept between scrapes.
public struct MetricFamily: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case counter
    case gauge
    case histogram
  }

  /// The name as Prometheus' text format shows it; a counter's ends in
  /// `_total`, which OpenMetrics keeps off the family's own name.
  public var name: String
  public var help: String
  public var kind: Kind
  public var series: [MetricSeries]

  public init(name: String, help: String, kind: Kind, series: [MetricSeries] = []) {
    self.name = name
    self.help = help
    self.kind = kind
    self.series = series
  }
}

/// One set of label values and what was measured there.
public struct MetricSeries: Sendable, Equatable {
  public enum Value: Sendable, Equatable {
    case number(Double)
    case histogram(HistogramSnapshot)
  }

  public var labels: [MetricLabel]
  public var value: Value

  public init(labels: [MetricLabel] = [], value: Value) {
    self.labels = labels
    self.value = value
  }

  public init(labels: [MetricLabel] = [], _ number: Double) {
    self.init(labels: labels, value: .number(number))
  }
}

public struct MetricLabel: Sendable, Equatable, Hashable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
