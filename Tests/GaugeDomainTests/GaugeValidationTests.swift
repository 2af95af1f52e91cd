import Testing

@testable import GaugeDomain

@Suite struct GaugeValidationTests {
  @Test(arguments: [0.0, 2.5, 5.0])
  func valuesWithinTheBoundsInclusiveAreAccepted(value: Double) throws {
    let content = try Content(validating: gaugeDraft(value: value))
    #expect(content.template == .gauge(Gauge(value: value, minValue: 0, maxValue: 5)))
  }

  @Test func aValueAboveMaxIsRejectedNotClamped() {
    #expect(
      contentViolations(gaugeDraft(value: 7)) == [
        violation("content.gauge.value", "7 is outside [0, 5]")
      ])
  }

  @Test func aValueBelowMinIsRejectedWithFractionsWrittenShortest() {
    #expect(
      contentViolations(gaugeDraft(value: 0.05, minValue: 0.1, maxValue: 2.5)) == [
        violation("content.gauge.value", "0.05 is outside [0.1, 2.5]")
      ])
  }

  @Test func valueMinAndMaxAreRequired() {
    #expect(
      contentViolations(gaugeDraft(value: nil, minValue: nil, maxValue: nil)) == [
        violation("content.gauge.value", "is required"),
        violation("content.gauge.min_value", "is required"),
        violation("content.gauge.max_value", "is required"),
      ])
  }

  @Test(arguments: [
    (Double.nan, "NaN"), (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"),
  ])
  func nonFiniteNumbersAreRejectedEverywhere(number: Double, text: String) {
    let message = "must be finite, got \(text)"
    #expect(
      contentViolations(gaugeDraft(value: number)) == [
        violation("content.gauge.value", message)
      ])
    #expect(
      contentViolations(gaugeDraft(minValue: number)) == [
        violation("content.gauge.min_value", message)
      ])
    #expect(
      contentViolations(gaugeDraft(maxValue: number)) == [
        violation("content.gauge.max_value", message)
      ])
    #expect(
      contentViolations(gaugeDraft(marks: [MarkPatch(value: number)])) == [
        violation("content.gauge.marks[0].value", message)
      ])
  }

  @Test func minMustBeStrictlyLessThanMax() {
    #expect(
      contentViolations(gaugeDraft(value: 5, minValue: 5, maxValue: 5)) == [
        violation("content.gauge.min_value", "must be less than max_value (5 ≥ 5)")
      ])
    #expect(
      contentViolations(gaugeDraft(value: 5, minValue: 10, maxValue: 0)) == [
        violation("content.gauge.min_value", "must be less than max_value (10 ≥ 0)")
      ])
  }

  @Test func negativeBoundsWork() throws {
    let content = try Content(validating: gaugeDraft(value: -20, minValue: -40, maxValue: -10))
    #expect(content.template == .gauge(Gauge(value: -20, minValue: -40, maxValue: -10)))
  }

  @Test func styleDefaultsToAutomaticAndAcceptsEveryKnownStyle() throws {
    #expect(
      try Content(validating: gaugeDraft()).template
        == .gauge(Gauge(value: 3, minValue: 0, maxValue: 5, style: .automatic)))
    for style in GaugeStyle.allCases {
      let content = try Content(validating: gaugeDraft(style: style.rawValue))
      guard case .gauge(let gauge) = content.template else {
        Issue.record("not a gauge")
        continue
      }
      #expect(gauge.style == style)
    }
  }

  @Test(arguments: [8, -1, 42] as [Int32])
  func anUnknownStyleIsRejected(style: Int32) {
    #expect(
      contentViolations(gaugeDraft(style: style)) == [
        violation("content.gauge.style", "\(style) is not a known GaugeStyle (0 to 7)")
      ])
  }

  @Test(arguments: [0, 2, 8])
  func gradientsOfNoneOrTwoToEightStopsAreAccepted(count: Int) throws {
    let stops = Array(repeating: "red", count: count)
    let content = try Content(validating: gaugeDraft(gradient: stops))
    guard case .gauge(let gauge) = content.template else {
      Issue.record("not a gauge")
      return
    }
    #expect(gauge.gradient == stops)
  }

  @Test(arguments: [1, 9])
  func gradientsOfOneOrMoreThanEightStopsAreRejected(count: Int) {
    #expect(
      contentViolations(gaugeDraft(gradient: Array(repeating: "blue", count: count))) == [
        violation("content.gauge.gradient", "must have 2 to 8 colours, got \(count)")
      ])
  }

  @Test func eachGradientStopMustBeAColour() {
    let found = contentViolations(gaugeDraft(gradient: ["red", "nope", "#00ff00", ""]))
    #expect(fields(found) == ["content.gauge.gradient[1]", "content.gauge.gradient[3]"])
  }

  @Test func upToSixteenMarksWithinTheBoundsAreAccepted() throws {
    let marks = (0..<16).map { MarkPatch(value: Double($0) / 3, label: "m\($0)") }
    let content = try Content(validating: gaugeDraft(marks: marks))
    guard case .gauge(let gauge) = content.template else {
      Issue.record("not a gauge")
      return
    }
    #expect(gauge.marks.count == 16)
    #expect(gauge.marks[3] == Mark(value: 1, label: "m3"))
    #expect(gauge.marks.first?.value == 0)
    #expect(gauge.marks.last?.value == 5)
  }

  @Test func seventeenMarksAreRejected() {
    let marks = Array(repeating: MarkPatch(value: 1), count: 17)
    #expect(
      contentViolations(gaugeDraft(marks: marks)) == [
        violation("content.gauge.marks", "must have at most 16 marks, got 17")
      ])
  }

  @Test func eachMarkNeedsAValueWithinTheBounds() {
    let marks = [
      MarkPatch(value: 0), MarkPatch(value: 5), MarkPatch(label: "x"), MarkPatch(value: 6),
    ]
    #expect(
      contentViolations(gaugeDraft(marks: marks)) == [
        violation("content.gauge.marks[2].value", "is required"),
        violation("content.gauge.marks[3].value", "6 is outside [0, 5]"),
      ])
  }

  @Test func markLabelsAreLimitedTo256Characters() throws {
    let fits = [MarkPatch(value: 1, label: repeated("é", 256))]
    _ = try Content(validating: gaugeDraft(marks: fits))
    #expect(
      contentViolations(gaugeDraft(marks: [MarkPatch(value: 1, label: repeated("é", 257))])) == [
        violation("content.gauge.marks[0].label", "must be at most 256 characters, got 257")
      ])
  }

  @Test func gaugeLabelsAreLimitedTo64Characters() throws {
    let fits = repeated("ü", 64)
    _ = try Content(
      validating: gaugeDraft(currentValueLabel: fits, minLabel: fits, maxLabel: fits))
    let tooLong = repeated("ü", 65)
    let message = "must be at most 64 characters, got 65"
    #expect(
      contentViolations(
        gaugeDraft(currentValueLabel: tooLong, minLabel: tooLong, maxLabel: tooLong)) == [
          violation("content.gauge.current_value_label", message),
          violation("content.gauge.min_label", message),
          violation("content.gauge.max_label", message),
        ])
  }

  @Test func everyProblemIsReportedInFieldOrder() {
    let found = contentViolations(
      gaugeDraft(
        value: .nan, minValue: 10, maxValue: 1, style: 99, gradient: ["red"],
        marks: [MarkPatch()], minLabel: repeated("a", 65)))
    #expect(
      fields(found) == [
        "content.gauge.value", "content.gauge.min_value", "content.gauge.style",
        "content.gauge.gradient", "content.gauge.marks[0].value", "content.gauge.min_label",
      ])
  }
}
