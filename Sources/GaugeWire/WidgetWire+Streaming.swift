import GaugeDomain
import GaugeProtos
import ProtobufCSupport

extension WidgetWire {
  /// One PublishValues item: the id ("" when absent) and the value.
  public static func decodeValueUpdate(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> (id: String, value: Double?) {
    try withUnpacked(
      bytes, as: "gauge.v1.ValueUpdate", gauge__v1__value_update__unpack,
      gauge__v1__value_update__free_unpacked
    ) { update in
      (id: optionalString(update.id) ?? "", value: optional(update.has_value, update.value))
    }
  }

  /// Every field is written, counts included when zero.
  public static func encodePublishSummary(
    accepted: UInt64, rejected: UInt64, rejections: [PublishRejection]
  ) -> [UInt8] {
    EncodeArena.withArena { arena in
      let summary = arena.message(gauge__v1__publish_summary__init)
      summary.pointee.has_accepted = 1
      summary.pointee.accepted = accepted
      summary.pointee.has_rejected = 1
      summary.pointee.rejected = rejected
      let messages = rejections.map { rejection in
        let message = arena.message(gauge__v1__rejection__init)
        message.pointee.has_index = 1
        message.pointee.index = rejection.index
        message.pointee.id = arena.cString(rejection.id)
        message.pointee.has_code = 1
        message.pointee.code = rejection.code
        message.pointee.message = arena.cString(rejection.message)
        return Optional(message)
      }
      summary.pointee.n_rejections = messages.count
      summary.pointee.rejections = arena.array(of: messages)
      return packed(
        summary, gauge__v1__publish_summary__get_packed_size, gauge__v1__publish_summary__pack)
    }
  }

  public static func decodeSubscribeRequest(
    _ bytes: UnsafeRawBufferPointer
  ) throws(WireError) -> SubscribeQuery {
    try withUnpacked(
      bytes, as: "gauge.v1.SubscribeRequest", gauge__v1__subscribe_request__unpack,
      gauge__v1__subscribe_request__free_unpacked
    ) { request in
      SubscribeQuery(
        ids: strings(request.n_ids, request.ids),
        idPrefix: optionalString(request.id_prefix) ?? "",
        includeSnapshot: optional(request.has_include_snapshot, request.include_snapshot != 0)
          ?? true,
        sinceRevision: optional(request.has_since_revision, request.since_revision),
        minIntervalMs: optional(request.has_min_interval_ms, request.min_interval_ms) ?? 0,
        valueDeltas: request.has_value_deltas != 0 && request.value_deltas != 0
      )
    }
  }

  /// The revision is always written; for an upsert it is the widget's.
  public static func encodeWidgetEvent(_ event: WidgetEventWire) -> [UInt8] {
    EncodeArena.withArena { arena in
      let message = arena.message(gauge__v1__widget_event__init)
      message.pointee.has_revision = 1
      switch event {
      case .upsert(let widget):
        message.pointee.revision = widget.revision
        message.pointee.event_case = GAUGE__V1__WIDGET_EVENT__EVENT_UPSERT
        message.pointee.upsert = arena.widget(widget)
      case .removed(let id, let revision):
        message.pointee.revision = revision
        message.pointee.event_case = GAUGE__V1__WIDGET_EVENT__EVENT_REMOVED
        message.pointee.removed = arena.cString(id)
      case .value(let id, let value, let updatedAtMs, let revision):
        message.pointee.revision = revision
        message.pointee.event_case = GAUGE__V1__WIDGET_EVENT__EVENT_VALUE
        let delta = arena.message(gauge__v1__value_delta__init)
        delta.pointee.id = arena.cString(id)
        delta.pointee.has_value = 1
        delta.pointee.value = value
        delta.pointee.has_updated_at_ms = 1
        delta.pointee.updated_at_ms = updatedAtMs
        message.pointee.value = delta
      case .synced(let revision):
        message.pointee.revision = revision
        message.pointee.event_case = GAUGE__V1__WIDGET_EVENT__EVENT_SYNCED
        message.pointee.synced = arena.message(gauge__v1__sync_marker__init)
      case .reset(let revision):
        message.pointee.revision = revision
        message.pointee.event_case = GAUGE__V1__WIDGET_EVENT__EVENT_RESET
        message.pointee.reset = arena.message(gauge__v1__reset_marker__init)
      }
      return packed(
        message, gauge__v1__widget_event__get_packed_size, gauge__v1__widget_event__pack)
    }
  }
}
