import GaugeDomain
import GaugeProtos
import GaugeWire
import Testing

@Suite struct ResponseEncodingTests {
  @Test(arguments: [true, false])
  func putWidgetResponseCarriesTheWidgetAndCreated(created: Bool) {
    let bytes = WidgetWire.encodePutWidgetResponse(widget: SampleWidgets.progress, created: created)
    let read = unpackedWithC(
      bytes, gauge__v1__put_widget_response__unpack, gauge__v1__put_widget_response__free_unpacked
    ) { response in
      (
        id: string(response.widget?.pointee.id), hasCreated: response.has_created,
        created: response.created
      )
    }
    #expect(read?.id == "p")
    #expect(read?.hasCreated == 1)
    #expect(read?.created == (created ? 1 : 0))
  }

  @Test func listResponseWithATokenAndManyLargeWidgets() {
    // Enough data to need several arena blocks, and strings larger than one.
    let widgets = (0..<300).map { index in
      var widget = SampleWidgets.gauge
      widget.id = "w\(index)"
      widget.name = String(repeating: "n", count: index * 10)
      return widget
    }
    let bytes = WidgetWire.encodeListWidgetsResponse(
      WidgetPage(widgets: widgets, nextPageToken: "next"))
    let read = unpackedWithC(
      bytes, gauge__v1__list_widgets_response__unpack,
      gauge__v1__list_widgets_response__free_unpacked
    ) { response in
      (
        widgets: UnsafeBufferPointer(start: response.widgets, count: response.n_widgets).map {
          (id: string($0?.pointee.id), name: string($0?.pointee.name))
        },
        token: string(response.next_page_token)
      )
    }
    #expect(read?.token == "next")
    #expect(read?.widgets.map(\.id) == widgets.map(\.id))
    #expect(read?.widgets.map(\.name) == widgets.map(\.name))
  }

  @Test func theLastPageIsEmptyAndHasNoToken() {
    let bytes = WidgetWire.encodeListWidgetsResponse(WidgetPage(widgets: [], nextPageToken: ""))
    #expect(bytes == [])
  }

  @Test func deleteResponseIsEmpty() {
    #expect(WidgetWire.encodeDeleteWidgetResponse() == [])
  }

  @Test func publishSummaryWritesEveryField() {
    let bytes = WidgetWire.encodePublishSummary(
      accepted: 10, rejected: 2,
      rejections: [
        PublishRejection(index: 3, id: "gone", code: 5, message: "widget \"gone\" not found"),
        PublishRejection(index: 7, id: "", code: 3, message: "value: not a number"),
      ])
    let read = unpackedWithC(
      bytes, gauge__v1__publish_summary__unpack, gauge__v1__publish_summary__free_unpacked
    ) { summary in
      (
        counts: [summary.has_accepted, summary.has_rejected],
        accepted: summary.accepted, rejected: summary.rejected,
        rejections: UnsafeBufferPointer(start: summary.rejections, count: summary.n_rejections).map
        {
          rejection in
          PublishRejection(
            index: rejection!.pointee.index, id: string(rejection!.pointee.id)!,
            code: rejection!.pointee.code, message: string(rejection!.pointee.message)!)
        }
      )
    }
    #expect(read?.counts == [1, 1])
    #expect(read?.accepted == 10 && read?.rejected == 2)
    #expect(
      read?.rejections == [
        PublishRejection(index: 3, id: "gone", code: 5, message: "widget \"gone\" not found"),
        PublishRejection(index: 7, id: "", code: 3, message: "value: not a number"),
      ])
  }

  @Test func publishSummaryWritesZeroCounts() {
    #expect(
      WidgetWire.encodePublishSummary(accepted: 0, rejected: 0, rejections: []) == [
        0x08, 0, 0x10, 0,
      ])
  }

  @Test func widgetEventsCarryTheirRevisionAndCase() {
    func read(_ event: WidgetEventWire) -> (revision: UInt64, case: UInt32, payload: String?)? {
      unpackedWithC(
        WidgetWire.encodeWidgetEvent(event), gauge__v1__widget_event__unpack,
        gauge__v1__widget_event__free_unpacked
      ) { message in
        #expect(message.has_revision == 1)
        let payload: String? =
          switch message.event_case {
          case GAUGE__V1__WIDGET_EVENT__EVENT_UPSERT: string(message.upsert?.pointee.id)
          case GAUGE__V1__WIDGET_EVENT__EVENT_REMOVED: string(message.removed)
          case GAUGE__V1__WIDGET_EVENT__EVENT_SYNCED: message.synced == nil ? nil : "synced"
          case GAUGE__V1__WIDGET_EVENT__EVENT_RESET: message.reset == nil ? nil : "reset"
          default: nil
          }
        return (message.revision, message.event_case.rawValue, payload)
      }
    }
    let upsert = read(.upsert(SampleWidgets.gauge))
    #expect(upsert?.revision == 17 && upsert?.case == 2 && upsert?.payload == "cpu-1")
    let removed = read(.removed(id: "old", revision: 18))
    #expect(removed?.revision == 18 && removed?.case == 3 && removed?.payload == "old")
    let synced = read(.synced(revision: 19))
    #expect(synced?.revision == 19 && synced?.case == 4 && synced?.payload == "synced")
    let reset = read(.reset(revision: 0))
    #expect(reset?.revision == 0 && reset?.case == 5 && reset?.payload == "reset")
  }
}
