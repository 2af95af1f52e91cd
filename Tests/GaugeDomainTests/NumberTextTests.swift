import Testing

@testable import GaugeDomain

@Suite struct NumberTextTests {
  @Test(arguments: [
    (7.0, "7"), (-3.0, "-3"), (0.0, "0"), (-0.0, "0"), (2.5, "2.5"), (0.1, "0.1"),
    (-0.25, "-0.25"), (1e300, "1e+300"), (Double.nan, "NaN"), (Double.infinity, "Infinity"),
    (-Double.infinity, "-Infinity"),
  ])
  func numbersReadAsAPersonWritesThem(number: Double, text: String) {
    #expect(number.humanText == text)
  }
}
