import GaugeDomain
import GaugeProtos

// Responses as a client reads them; the server-side encoders in
// WidgetWire+Responses and WidgetWire+Streaming write them.

extension WidgetWire {
  /// A gauge.v1.Widget as the UpdateWidget and GetWidget responses carry
  /// it, read leniently (see ResponseWidgetDecoding).
  public static func decodeWidgetResponse(_ bytes: UnsafeRawBufferPointer) throws(WireError)
    -> Widget
  {
    try withUnpacked(
      bytes, as: "gauge.v1.Widget", gauge__v1__widget__unpack, gauge__v1__widget__free_unpacked
    ) { widget throws(WireError) in try Widget(response: widget) }
  }

  public static func decodePutWidgetResponse(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> (widget: Widget, created: Bool) {
    try withUnpacked(
      bytes, as: "gauge.v1.PutWidgetResponse", gauge__v1__put_widget_response__unpack,
      gauge__v1__put_widget_response__free_unpacked
    ) { response throws(WireError) in
      guard let widget = response.widget?.pointee else {
        throw WireError(message: "gauge.v1.PutWidgetResponse has no widget")
      }
      return (try Widget(response: widget), response.created != 0)
    }
  }

  public static func decodeListWidgetsResponse(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> WidgetPage {
    try withUnpacked(
      bytes, as: "gauge.v1.ListWidgetsResponse", gauge__v1__list_widgets_response__unpack,
      gauge__v1__list_widgets_response__free_unpacked
    ) { response throws(WireError) in
      var widgets: [Widget] = []
      for widget in messages(response.n_widgets, response.widgets) {
        widgets.append(try Widget(response: widget))
      }
      return WidgetPage(
        widgets: widgets, nextPageToken: optionalString(response.next_page_token) ?? "")
    }
  }

  public static func decodePublishSummary(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> PublishSummary {
    try withUnpacked(
      bytes, as: "gauge.v1.PublishSummary", gauge__v1__publish_summary__unpack,
      gauge__v1__publish_summary__free_unpacked
    ) { summary in
      PublishSummary(
        accepted: summary.accepted, rejected: summary.rejected,
        rejections: messages(summary.n_rejections, summary.rejections).map {
          PublishRejection(
            index: $0.index, id: optionalString($0.id) ?? "", code: $0.code,
            message: optionalString($0.message) ?? "")
        })
    }
  }

  /// An event whose oneof is unset (from a newer server, say) is an error
  /// the caller may skip.
  public static func decodeWidgetEvent(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> WidgetEventWire {
    try withUnpacked(
      bytes, as: "gauge.v1.WidgetEvent", gauge__v1__widget_event__unpack,
      gauge__v1__widget_event__free_unpacked
    ) { event throws(WireError) in
      switch event.event_case {
      case GAUGE__V1__WIDGET_EVENT__EVENT_UPSERT:
        guard let widget = event.upsert?.pointee else {
          throw WireError(message: "gauge.v1.WidgetEvent upsert has no widget")
        }
        return .upsert(try Widget(response: widget))
      case GAUGE__V1__WIDGET_EVENT__EVENT_REMOVED:
        return .removed(id: optionalString(event.removed) ?? "", revision: event.revision)
      case GAUGE__V1__WIDGET_EVENT__EVENT_VALUE:
        guard let delta = event.value?.pointee, delta.has_value != 0 else {
          throw WireError(message: "gauge.v1.WidgetEvent value has no value")
        }
        return .value(
          id: optionalString(delta.id) ?? "", value: delta.value,
          updatedAtMs: delta.has_updated_at_ms != 0 ? delta.updated_at_ms : 0,
          revision: event.revision)
      case GAUGE__V1__WIDGET_EVENT__EVENT_SYNCED:
        return .synced(revision: event.revision)
      case GAUGE__V1__WIDGET_EVENT__EVENT_RESET:
        return .reset(revision: event.revision)
      default:
        throw WireError(message: "gauge.v1.WidgetEvent has no event")
      }
    }
  }
}
