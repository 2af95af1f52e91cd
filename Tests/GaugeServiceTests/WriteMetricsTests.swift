import GaugeDomain
import Testing

@testable import GaugeService

@Suite struct WriteMetricsTests {
  @Test func rulesAreFieldsWithoutIndices() {
    #expect(WriteMetrics.rule(field: "content.marks[12].value") == "content.marks[].value")
    #expect(WriteMetrics.rule(field: "id") == "id")
  }

  @Test func eachViolationCountsUnderItsRule() {
    let error = WidgetError.invalid([
      FieldViolation(field: "content.marks[0].value", description: "must be finite"),
      FieldViolation(field: "content.marks[3].value", description: "must be finite"),
      FieldViolation(field: "name", description: "is too long"),
    ])
    #expect(
      WriteMetrics.rules(error) == ["content.marks[].value", "content.marks[].value", "name"])
    #expect(WriteMetrics.rules(.notFound(id: "a")) == ["not_found"])
    #expect(WriteMetrics.rules(.alreadyExists(id: "a")) == ["already_exists"])
  }
}
