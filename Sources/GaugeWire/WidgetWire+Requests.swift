import GaugeDomain
import GaugeProtos

extension WidgetWire {
  /// The widget's id, name, content and `stale_after_ms`; server-assigned
  /// fields (revision, timestamps, `stale`) are ignored.
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
        content: widget.content.map { ContentPatch($0.pointee) },
        staleAfterMs: widget.has_stale_after_ms != 0 ? Int64(widget.stale_after_ms) : nil
      )
    }
  }

  public static func decodeUpdateWidgetRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> WidgetUpdate {
    try withUnpacked(
      bytes, as: "gauge.v1.UpdateWidgetRequest", gauge__v1__update_widget_request__unpack,
      gauge__v1__update_widget_request__free_unpacked, read: widgetUpdate)
  }

  /// What the service runs for an UpdateWidgetRequest: one that sets an id
  /// and one template's value, and nothing else, as a `TemplateValueUpdate`
  /// (whose `widgetUpdate` is what `decodeUpdateWidgetRequest` gives);
  /// any other as a patch.
  public static func decodeUpdateWidgetCall(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> UpdateWidgetCall {
    if let update = TemplateValueUpdate(canonical: bytes) { return .templateValue(update) }
    return try withUnpacked(
      bytes, as: "gauge.v1.UpdateWidgetRequest", gauge__v1__update_widget_request__unpack,
      gauge__v1__update_widget_request__free_unpacked
    ) { request in
      templateValueUpdate(request).map(UpdateWidgetCall.templateValue)
        ?? .patch(widgetUpdate(request))
    }
  }

  private static func widgetUpdate(_ request: Gauge__V1__UpdateWidgetRequest) -> WidgetUpdate {
    WidgetUpdate(
      id: optionalString(request.id),
      name: optionalString(request.name),
      content: request.content.map { ContentPatch($0.pointee) },
      clearFields: strings(request.n_clear_fields, request.clear_fields),
      staleAfterMs: request.has_stale_after_ms != 0 ? Int64(request.stale_after_ms) : nil
    )
  }

  /// Every field of the request and of its content is checked: one that is
  /// set and not named here must send the request down the patch path.
  /// A field added to these messages belongs here too.
  private static func templateValueUpdate(_ request: Gauge__V1__UpdateWidgetRequest)
    -> TemplateValueUpdate?
  {
    guard let id = request.id, request.name == nil, request.n_clear_fields == 0,
      request.has_stale_after_ms == 0,
      let content = request.content?.pointee, content.label == nil, content.subtitle == nil,
      content.icon == nil, content.unit == nil, content.has_trend == 0,
      content.accent_color == nil, content.background_color == nil, content.text_color == nil
    else { return nil }
    let kind: TemplateKind
    let value: Double
    switch content.template_case {
    case GAUGE__V1__CONTENT__TEMPLATE_GAUGE:
      guard let gauge = content.gauge?.pointee, gauge.has_value != 0, gauge.has_min_value == 0,
        gauge.has_max_value == 0, gauge.has_style == 0, gauge.n_gradient == 0,
        gauge.n_marks == 0, gauge.current_value_label == nil, gauge.min_label == nil,
        gauge.max_label == nil
      else { return nil }
      (kind, value) = (.gauge, gauge.value)
    case GAUGE__V1__CONTENT__TEMPLATE_PROGRESS:
      guard let progress = content.progress?.pointee, progress.has_value != 0 else { return nil }
      (kind, value) = (.progress, progress.value)
    case GAUGE__V1__CONTENT__TEMPLATE_VALUE:
      guard let plain = content.value?.pointee, plain.has_value != 0, plain.has_min_value == 0,
        plain.has_max_value == 0
      else { return nil }
      (kind, value) = (.value, plain.value)
    default:
      return nil
    }
    return TemplateValueUpdate(id: String(cString: id), kind: kind, value: value)
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
