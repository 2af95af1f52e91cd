import GaugeDomain
import GaugeProtos
import ProtobufCSupport

extension WidgetWire {
  /// A gauge.v1.Widget: the UpdateWidget and GetWidget response.
  public static func encodeWidget(_ widget: Widget) -> [UInt8] {
    EncodeArena.withArena { arena in
      return packed(
        arena.widget(widget), gauge__v1__widget__get_packed_size, gauge__v1__widget__pack)
    }
  }

  /// `encodeWidget`'s bytes, written into memory the caller provides:
  /// `place` gets the size and a function that writes into a buffer of
  /// that size (`WidgetWireWriter`, no protobuf-c struct graph).
  public static func encodeWidget(
    _ widget: Widget, into place: (Int, (UnsafeMutableRawBufferPointer) -> Void) -> Void
  ) {
    let sizes = WidgetWireWriter.sizes(of: widget)
    place(sizes.widget) { buffer in WidgetWireWriter.write(widget, sizes: sizes, into: buffer) }
  }

  public static func encodePutWidgetResponse(widget: Widget, created: Bool) -> [UInt8] {
    EncodeArena.withArena { arena in
      let response = arena.message(gauge__v1__put_widget_response__init)
      response.pointee.widget = arena.widget(widget)
      response.pointee.has_created = 1
      response.pointee.created = created ? 1 : 0
      return packed(
        response, gauge__v1__put_widget_response__get_packed_size,
        gauge__v1__put_widget_response__pack)
    }
  }

  /// `next_page_token` is written only when non-empty; absent reads as "".
  public static func encodeListWidgetsResponse(_ page: WidgetPage) -> [UInt8] {
    EncodeArena.withArena { arena in
      let response = arena.message(gauge__v1__list_widgets_response__init)
      let widgets = page.widgets.map { Optional(arena.widget($0)) }
      response.pointee.n_widgets = widgets.count
      response.pointee.widgets = arena.array(of: widgets)
      if !page.nextPageToken.isEmpty {
        response.pointee.next_page_token = arena.cString(page.nextPageToken)
      }
      return packed(
        response, gauge__v1__list_widgets_response__get_packed_size,
        gauge__v1__list_widgets_response__pack)
    }
  }

  /// DeleteWidgetResponse has no fields: its encoding is empty.
  public static func encodeDeleteWidgetResponse() -> [UInt8] {
    []
  }
}
