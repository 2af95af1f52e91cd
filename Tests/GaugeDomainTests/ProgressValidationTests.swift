import Testing

@testable import GaugeDomain

@Suite struct ProgressValidationTests {
  @Test(arguments: [0.0, 0.5, 1.0])
  func fractionsFromZeroToOneAreAccepted(value: Double) throws {
    #expect(
      try Content(validating: progressDraft(value)).template == .progress(Progress(value: value)))
  }

  @Test(arguments: [(1.5, "1.5"), (-0.1, "-0.1"), (2, "2")])
  func fractionsOutsideZeroToOneAreRejected(value: Double, text: String) {
    #expect(
      contentViolations(progressDraft(value)) == [
        violation("content.progress.value", "\(text) is outside [0, 1]")
      ])
  }

  @Test func theValueIsRequiredAndFinite() {
    #expect(
      contentViolations(progressDraft(nil)) == [violation("content.progress.value", "is required")]
    )
    #expect(
      contentViolations(progressDraft(.nan)) == [
        violation("content.progress.value", "must be finite, got NaN")
      ])
    #expect(
      contentViolations(progressDraft(.infinity)) == [
        violation("content.progress.value", "must be finite, got Infinity")
      ])
  }
}
