import GaugeDomain
import GaugeProtos

extension WidgetWire {
  /// The widget's id, name and content; server-assigned fields (revision,
  /// timestamps) are ignored.
  public static func decodePutWidgetRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> WidgetPut {
    try withUnpacked(
      bytes, as: "gauge.v1.PutWidgetRequest", gauge__v1__put_widget_request__unpack,
      gauge__v1__put_widget_request__free_unpacked
    ) { request in
      guard let widget = request.widget?.pointee else { return WidgetPut() }
      return WidgetPut(
        id: optionalString(widget.id),
        name: optionalString(widget.name),
        content: widget.content.map { ContentPatch($0.pointee) }
      )
    }
  }

  public static func decodeUpdateWidgetRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> WidgetUpdate {
    try withUnpacked(
      bytes, as: "gauge.v1.UpdateWidgetRequest", gauge__v1__update_widget_request__unpack,
      gauge__v1__update_widget_request__free_unpacked
    ) { request in
      WidgetUpdate(
        id: optionalString(request.id),
        name: optionalString(request.name),
        content: request.content.map { ContentPatch($0.pointee) },
        clearFields: strings(request.n_clear_fields, request.clear_fields)
      )
    }
  }

  /// The id, "" when absent.
  public static func decodeGetWidgetRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> String {
    try withUnpacked(
      bytes, as: "gauge.v1.GetWidgetRequest", gauge__v1__get_widget_request__unpack,
      gauge__v1__get_widget_request__free_unpacked
    ) { request in
      optionalString(request.id) ?? ""
    }
  }

  /// The id, "" when absent.
  public static func decodeDeleteWidgetRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> String {
    try withUnpacked(
      bytes, as: "gauge.v1.DeleteWidgetRequest", gauge__v1__delete_widget_request__unpack,
      gauge__v1__delete_widget_request__free_unpacked
    ) { request in
      optionalString(request.id) ?? ""
    }
  }

  /// Absent fields read as "" and 0; the domain applies the page size default.
  public static func decodeListWidgetsRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> ListQuery {
    try withUnpacked(
      bytes, as: "gauge.v1.ListWidgetsRequest", gauge__v1__list_widgets_request__unpack,
      gauge__v1__list_widgets_request__free_unpacked
    ) { request in
      ListQuery(
        idPrefix: optionalString(request.id_prefix) ?? "",
        pageSize: optional(request.has_page_size, request.page_size) ?? 0,
        pageToken: optionalString(request.page_token) ?? ""
      )
    }
  }
}
