import GaugeDomain
import GaugeWire
import Testing

/// What a client encodes, the server's decoders read back unchanged; what the
/// server encodes, the client's decoders read back unchanged.
@Suite struct ClientDirectionTests {
  @Test func putRequestRoundTripsEveryPatchField() throws {
    let put = WidgetPut(
      id: "cpu", name: "CPU",
      content: ContentPatch(
        template: .gauge(
          GaugePatch(
            value: 42, minValue: 0, maxValue: 100, style: 4, gradient: ["green", "red"],
            marks: [MarkPatch(value: 80, label: "hot"), MarkPatch(value: 10)],
            currentValueLabel: "42", minLabel: "idle", maxLabel: "")),
        label: "load", subtitle: "all cores", icon: "cpu", unit: "%", trend: 1,
        accentColor: "orange", backgroundColor: "#000000", textColor: "white"))
    let bytes = WidgetWire.encodePutWidgetRequest(put)
    #expect(try decode(bytes, with: WidgetWire.decodePutWidgetRequest) == put)
  }

  @Test func absentFieldsStayAbsentAndUnknownEnumNumbersGoOutAsGiven() throws {
    let put = WidgetPut(
      id: "p",
      content: ContentPatch(template: .progress(ProgressPatch()), trend: 99))
    #expect(
      try decode(WidgetWire.encodePutWidgetRequest(put), with: WidgetWire.decodePutWidgetRequest)
        == put)
    let bare = WidgetPut(id: "x")
    #expect(
      try decode(WidgetWire.encodePutWidgetRequest(bare), with: WidgetWire.decodePutWidgetRequest)
        == bare)
  }

  @Test func updateRequestRoundTripsWithClearFields() throws {
    let update = WidgetUpdate(
      id: "v",
      content: ContentPatch(template: .value(PlainValuePatch(value: -3.5, maxValue: 9))),
      clearFields: ["content.subtitle", "content.value.min_value"])
    #expect(
      try decode(
        WidgetWire.encodeUpdateWidgetRequest(update), with: WidgetWire.decodeUpdateWidgetRequest)
        == update)
  }

  @Test func smallRequestsRoundTrip() throws {
    #expect(
      try decode(
        WidgetWire.encodeGetWidgetRequest(id: "a-1"), with: WidgetWire.decodeGetWidgetRequest)
        == "a-1")
    #expect(
      try decode(
        WidgetWire.encodeDeleteWidgetRequest(id: "b"), with: WidgetWire.decodeDeleteWidgetRequest)
        == "b")
    let query = ListQuery(idPrefix: "cpu", pageSize: 1000, pageToken: "tok")
    #expect(
      try decode(
        WidgetWire.encodeListWidgetsRequest(query), with: WidgetWire.decodeListWidgetsRequest)
        == query)
    #expect(WidgetWire.encodeListWidgetsRequest(ListQuery()).isEmpty)
    let update = try decode(
      WidgetWire.encodeValueUpdate(id: "cpu", value: 0.25), with: WidgetWire.decodeValueUpdate)
    #expect(update.id == "cpu" && update.value == 0.25)
  }

  @Test func subscribeRequestRoundTripsAndKeepsTheSnapshotDefault() throws {
    let resume = SubscribeQuery(
      ids: ["a", "b"], idPrefix: "", includeSnapshot: false, sinceRevision: 41,
      minIntervalMs: 250, valueDeltas: true)
    #expect(
      try decode(
        WidgetWire.encodeSubscribeRequest(resume), with: WidgetWire.decodeSubscribeRequest)
        == resume)
    let everything = SubscribeQuery(idPrefix: "cpu-")
    #expect(
      try decode(
        WidgetWire.encodeSubscribeRequest(everything), with: WidgetWire.decodeSubscribeRequest)
        == everything)
  }

  @Test(arguments: [SampleWidgets.gauge, SampleWidgets.progress, SampleWidgets.value])
  func widgetsRoundTrip(widget: Widget) throws {
    #expect(
      try decode(WidgetWire.encodeWidget(widget), with: WidgetWire.decodeWidgetResponse) == widget)
  }

  @Test func putAndListResponsesRoundTrip() throws {
    let put = try decode(
      WidgetWire.encodePutWidgetResponse(widget: SampleWidgets.gauge, created: true),
      with: WidgetWire.decodePutWidgetResponse)
    #expect(put.widget == SampleWidgets.gauge && put.created)
    let page = WidgetPage(
      widgets: [SampleWidgets.progress, SampleWidgets.value], nextPageToken: "n")
    #expect(
      try decode(
        WidgetWire.encodeListWidgetsResponse(page), with: WidgetWire.decodeListWidgetsResponse)
        == page)
    let last = WidgetPage(widgets: [], nextPageToken: "")
    #expect(
      try decode(
        WidgetWire.encodeListWidgetsResponse(last), with: WidgetWire.decodeListWidgetsResponse)
        == last)
  }

  /// The encoder's arena starts on the stack (1 KiB) and goes on in heap
  /// blocks: a page of 200 widgets, one with a 5 KB label, needs both.
  @Test func listPageLargerThanTheArenaStackBlockRoundTrips() throws {
    var widgets = (0..<200).map { index in
      var widget = SampleWidgets.gauge
      widget.id = "cpu-\(index)"
      return widget
    }
    widgets[100].content.label = String(repeating: "x", count: 5000)
    let page = WidgetPage(widgets: widgets, nextPageToken: "next")
    #expect(
      try decode(
        WidgetWire.encodeListWidgetsResponse(page), with: WidgetWire.decodeListWidgetsResponse)
        == page)
  }

  @Test func widgetPackedInPlaceIsTheSameBytes() {
    for widget in [SampleWidgets.gauge, SampleWidgets.progress, SampleWidgets.value] {
      var placed: [UInt8] = []
      WidgetWire.encodeWidget(widget) { size, pack in
        placed = [UInt8](repeating: 0xEE, count: size)
        placed.withUnsafeMutableBytes { pack($0) }
      }
      #expect(placed == WidgetWire.encodeWidget(widget))
    }
  }

  @Test func widgetWithoutTemplateIsAnError() {
    // A Widget with an id and an empty Content.
    let bytes = ProtoBytes().string(1, "w").message(3, ProtoBytes()).bytes
    #expect(
      wireError(bytes, with: WidgetWire.decodeWidgetResponse)
        == WireError(message: "widget \"w\" has no content template"))
  }

  @Test func publishSummaryRoundTrips() throws {
    let rejections = [
      PublishRejection(index: 2, id: "nope", code: 5, message: "widget \"nope\" not found"),
      PublishRejection(index: 7, id: "cpu", code: 3, message: "content.gauge.value: too big"),
    ]
    let summary = try decode(
      WidgetWire.encodePublishSummary(accepted: 8, rejected: 2, rejections: rejections),
      with: WidgetWire.decodePublishSummary)
    #expect(summary == PublishSummary(accepted: 8, rejected: 2, rejections: rejections))
  }

  @Test(arguments: [
    WidgetEventWire.upsert(SampleWidgets.gauge), .removed(id: "gone", revision: 9),
    .synced(revision: 10), .reset(revision: 0),
    .value(id: "cpu", value: -0.5, updatedAtMs: 1_700_000_000_123, revision: 11),
  ])
  func widgetEventsRoundTrip(event: WidgetEventWire) throws {
    #expect(
      try decode(WidgetWire.encodeWidgetEvent(event), with: WidgetWire.decodeWidgetEvent) == event)
  }

  @Test func statusDetailsGiveBackEveryViolation() throws {
    let violations = [
      FieldViolation(field: "content.gauge.value", description: "170 is outside [0, 100]"),
      FieldViolation(field: "id", description: "is required"),
    ]
    let bytes = StatusDetailsWire.encodeBadRequest(
      code: 3, message: "two problems", violations: violations)
    #expect(
      try decode(bytes, with: StatusDetailsWire.decode)
        == StatusDetails(code: 3, message: "two problems", violations: violations))
    #expect(
      try decode(
        StatusDetailsWire.encodeStatus(code: 5, message: "gone"), with: StatusDetailsWire.decode)
        == StatusDetails(code: 5, message: "gone", violations: []))
    #expect(wireError([0xFF, 0xFF], with: StatusDetailsWire.decode) != nil)
  }
}
