import GaugeDomain
import GaugeProtos
import ProtobufCSupport

// Requests as a client sends them; the server-side decoders in
// WidgetWire+Requests read them back.

extension WidgetWire {
  public static func encodePutWidgetRequest(_ put: WidgetPut) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__put_widget_request__init)
      let widget = arena.message(gauge__v1__widget__init)
      widget.pointee.id = arena.cString(put.id)
      widget.pointee.name = arena.cString(put.name)
      widget.pointee.content = put.content.map { arena.contentPatch($0) }
      if let staleAfterMs = put.staleAfterMs {
        widget.pointee.has_stale_after_ms = 1
        widget.pointee.stale_after_ms = UInt32(clamping: staleAfterMs)
      }
      request.pointee.widget = widget
      return packed(
        request, gauge__v1__put_widget_request__get_packed_size, gauge__v1__put_widget_request__pack
      )
    }
  }

  public static func encodeUpdateWidgetRequest(_ update: WidgetUpdate) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__update_widget_request__init)
      request.pointee.id = arena.cString(update.id)
      request.pointee.name = arena.cString(update.name)
      request.pointee.content = update.content.map { arena.contentPatch($0) }
      let clearFields = update.clearFields.map { Optional(arena.cString($0)) }
      request.pointee.n_clear_fields = clearFields.count
      request.pointee.clear_fields = arena.array(of: clearFields)
      if let staleAfterMs = update.staleAfterMs {
        request.pointee.has_stale_after_ms = 1
        request.pointee.stale_after_ms = UInt32(clamping: staleAfterMs)
      }
      return packed(
        request, gauge__v1__update_widget_request__get_packed_size,
        gauge__v1__update_widget_request__pack)
    }
  }

  public static func encodeGetWidgetRequest(id: String) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__get_widget_request__init)
      request.pointee.id = arena.cString(id)
      return packed(
        request, gauge__v1__get_widget_request__get_packed_size, gauge__v1__get_widget_request__pack
      )
    }
  }

  public static func encodeDeleteWidgetRequest(id: String) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__delete_widget_request__init)
      request.pointee.id = arena.cString(id)
      return packed(
        request, gauge__v1__delete_widget_request__get_packed_size,
        gauge__v1__delete_widget_request__pack)
    }
  }

  /// Empty prefix and token and a zero page size are left out.
  public static func encodeListWidgetsRequest(_ query: ListQuery) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__list_widgets_request__init)
      if !query.idPrefix.isEmpty { request.pointee.id_prefix = arena.cString(query.idPrefix) }
      if query.pageSize != 0 {
        request.pointee.has_page_size = 1
        request.pointee.page_size = query.pageSize
      }
      if !query.pageToken.isEmpty { request.pointee.page_token = arena.cString(query.pageToken) }
      return packed(
        request, gauge__v1__list_widgets_request__get_packed_size,
        gauge__v1__list_widgets_request__pack)
    }
  }

  /// One PublishValues item.
  public static func encodeValueUpdate(id: String, value: Double) -> [UInt8] {
    EncodeArena.withArena { arena in
      let update = arena.message(gauge__v1__value_update__init)
      update.pointee.id = arena.cString(id)
      update.pointee.has_value = 1
      update.pointee.value = value
      return packed(update, gauge__v1__value_update__get_packed_size, gauge__v1__value_update__pack)
    }
  }

  /// `include_snapshot` is written only when false (true is the schema's
  /// default); a zero `min_interval_ms` is left out.
  public static func encodeSubscribeRequest(_ query: SubscribeQuery) -> [UInt8] {
    EncodeArena.withArena { arena in
      let request = arena.message(gauge__v1__subscribe_request__init)
      let ids = query.ids.map { Optional(arena.cString($0)) }
      request.pointee.n_ids = ids.count
      request.pointee.ids = arena.array(of: ids)
      if !query.idPrefix.isEmpty { request.pointee.id_prefix = arena.cString(query.idPrefix) }
      if !query.includeSnapshot {
        request.pointee.has_include_snapshot = 1
        request.pointee.include_snapshot = 0
      }
      if let since = query.sinceRevision {
        request.pointee.has_since_revision = 1
        request.pointee.since_revision = since
      }
      if query.minIntervalMs != 0 {
        request.pointee.has_min_interval_ms = 1
        request.pointee.min_interval_ms = query.minIntervalMs
      }
      if query.valueDeltas {
        request.pointee.has_value_deltas = 1
        request.pointee.value_deltas = 1
      }
      return packed(
        request, gauge__v1__subscribe_request__get_packed_size, gauge__v1__subscribe_request__pack)
    }
  }
}
