/// gauge.v1 messages on the wire, each field in number order as protobuf
/// writes them, so JSON → binary must give back the same bytes.
enum SampleWire {
  static let marks = [
    WireBytes().double(1, 50).string(2, "half"),
    WireBytes().double(1, 90),
  ]

  static let gauge = WireBytes()
    .double(1, 42.5).double(2, 0).double(3, 100).varint(4, 6)
    .string(5, "#00ff00").string(5, "red")
    .message(6, marks[0]).message(6, marks[1])
    .string(7, "42.5%")

  static let gaugeContent = WireBytes()
    .message(1, gauge).string(10, "CPU").string(13, "%").varint(14, 1).string(15, "blue")

  static let gaugeWidget = WireBytes()
    .string(1, "cpu").string(2, "CPU load").message(3, gaugeContent)
    .varint(4, 7).varint(5, 1_700_000_000_000).varint(6, 1_700_000_000_123)

  static let gaugeWidgetJSON =
    #"{"id":"cpu","name":"CPU load","content":{"gauge":{"value":42.5,"minValue":0,"maxValue":100,"#
    + ##""style":"CIRCULAR","gradient":["#00ff00","red"],"marks":[{"value":50,"label":"half"},"##
    + #"{"value":90}],"currentValueLabel":"42.5%"},"label":"CPU","unit":"%","trend":"UP","#
    + #""accentColor":"blue"},"revision":"7","createdAtMs":"1700000000000","#
    + #""updatedAtMs":"1700000000123"}"#

  static let progressWidget = WireBytes()
    .string(1, "sync").message(3, WireBytes().message(2, WireBytes().double(1, 0.25)).varint(14, 3))

  static let progressWidgetJSON =
    #"{"id":"sync","content":{"progress":{"value":0.25},"trend":"FLAT"}}"#
}
