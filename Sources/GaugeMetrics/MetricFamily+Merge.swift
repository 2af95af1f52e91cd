extension [MetricFamily] {
  /// The families of several sources (loops) as one list: series with the
  /// same name and labels are added, numbers and histograms alike; the
  /// first source's order is kept, and families or series only later
  /// sources have are appended.
  public func merged(with other: [MetricFamily]) -> [MetricFamily] {
    var result = self
    for family in other {
      guard let index = result.firstIndex(where: { $0.name == family.name }) else {
        result.append(family)
        continue
      }
      for series in family.series {
        if let at = result[index].series.firstIndex(where: { $0.labels == series.labels }) {
          result[index].series[at].value = result[index].series[at].value.adding(series.value)
        } else {
          result[index].series.append(series)
        }
      }
    }
    return result
  }
}

extension MetricSeries.Value {
  /// Two numbers add; two histograms add bucket by bucket. Anything else
  /// is a family whose kind changed between sources, kept as first seen.
  func adding(_ other: MetricSeries.Value) -> MetricSeries.Value {
    switch (self, other) {
    case (.number(let left), .number(let right)): return .number(left + right)
    case (.histogram(var left), .histogram(let right)) where left.upperBounds == right.upperBounds:
      left.add(right)
      return .histogram(left)
    default: return self
    }
  }
}
