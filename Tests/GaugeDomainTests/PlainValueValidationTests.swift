import Testing

@testable import GaugeDomain

@Suite struct PlainValueValidationTests {
  @Test func aValueAloneIsAccepted() throws {
    #expect(
      try Content(validating: plainValueDraft(-12.5)).template == .value(PlainValue(value: -12.5)))
  }

  @Test func theValueMayLieOutsideItsBoundsAndIsNeverClamped() throws {
    let content = try Content(validating: plainValueDraft(250, min: 0, max: 100))
    #expect(content.template == .value(PlainValue(value: 250, minValue: 0, maxValue: 100)))
  }

  @Test func eitherBoundAloneIsAccepted() throws {
    #expect(
      try Content(validating: plainValueDraft(1, min: 5)).template
        == .value(PlainValue(value: 1, minValue: 5)))
    #expect(
      try Content(validating: plainValueDraft(1, max: -5)).template
        == .value(PlainValue(value: 1, maxValue: -5)))
  }

  @Test func bothBoundsMustBeStrictlyOrdered() {
    #expect(
      contentViolations(plainValueDraft(1, min: 3, max: 3)) == [
        violation("content.value.min_value", "must be less than max_value (3 ≥ 3)")
      ])
  }

  @Test func theValueIsRequiredAndEveryNumberFinite() {
    #expect(
      contentViolations(plainValueDraft(nil, min: .nan, max: -.infinity)) == [
        violation("content.value.value", "is required"),
        violation("content.value.min_value", "must be finite, got NaN"),
        violation("content.value.max_value", "must be finite, got -Infinity"),
      ])
    #expect(
      contentViolations(plainValueDraft(.infinity)) == [
        violation("content.value.value", "must be finite, got Infinity")
      ])
  }
}
