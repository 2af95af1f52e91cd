import GaugeProtos
import Testing

@testable import ProtoJSON

@Suite struct ProtoJSONServiceTests {
  private let service = withUnsafePointer(to: gauge__v1__widget_service__descriptor) {
    ProtoJSONService($0)
  }

  @Test func findsEachMethodWithItsInputAndOutput() throws {
    #expect(service.fullName == "gauge.v1.WidgetService")
    let expected = [
      ("PutWidget", "gauge.v1.PutWidgetRequest", "gauge.v1.PutWidgetResponse"),
      ("UpdateWidget", "gauge.v1.UpdateWidgetRequest", "gauge.v1.Widget"),
      ("GetWidget", "gauge.v1.GetWidgetRequest", "gauge.v1.Widget"),
      ("ListWidgets", "gauge.v1.ListWidgetsRequest", "gauge.v1.ListWidgetsResponse"),
      ("DeleteWidget", "gauge.v1.DeleteWidgetRequest", "gauge.v1.DeleteWidgetResponse"),
      ("PublishValues", "gauge.v1.ValueUpdate", "gauge.v1.PublishSummary"),
      ("Subscribe", "gauge.v1.SubscribeRequest", "gauge.v1.WidgetEvent"),
    ]
    for (name, input, output) in expected {
      let method = try #require(service.method(name))
      #expect(method.input.fullName == input)
      #expect(method.output.fullName == output)
    }
    #expect(service.method("updateWidget") == nil)
    #expect(service.method("Missing") == nil)
  }

  @Test func sharesOneMappingPerMessageType() throws {
    let update = try #require(service.method("UpdateWidget"))
    let get = try #require(service.method("GetWidget"))
    #expect(update.output === get.output)
  }

  @Test func transcodesThroughAMethodsMappings() throws {
    let method = try #require(service.method("GetWidget"))
    #expect(try method.input.binary(#"{"id":"cpu"}"#) == WireBytes().string(1, "cpu").bytes)
    #expect(try method.output.json(SampleWire.gaugeWidget) == SampleWire.gaugeWidgetJSON)
  }
}
