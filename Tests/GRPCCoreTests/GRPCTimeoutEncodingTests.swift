import Testing

@testable import GRPCCore

@Suite struct GRPCTimeoutEncodingTests {
  @Test(arguments: [
    (Duration.milliseconds(1500), "1500000u"),
    (.seconds(5), "5000000u"),
    (.nanoseconds(1), "1n"),
    (.seconds(100), "100000m"),
    (.seconds(100_000), "100000S"),
    (.seconds(100_000_000), "1666667M"),
    (.seconds(0), "0n"),
    (.seconds(-3), "0n"),
  ])
  func encodesTheFinestUnitThatFits(duration: Duration, header: String) {
    #expect(GRPCTimeout.encode(duration) == header)
  }

  @Test func encodedTimeoutsParseBackNoEarlierThanAsked() {
    for duration in [Duration.milliseconds(1), .milliseconds(999), .seconds(86_400 * 30)] {
      let parsed = GRPCTimeout.parse(Array(GRPCTimeout.encode(duration).utf8))
      #expect(parsed != nil)
      #expect(parsed! >= duration)
    }
  }
}
