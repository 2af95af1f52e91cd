import GaugeDomain
import GaugeProtos

extension WidgetWire {
  /// The inverse of `encodeWidget`, for widgets read back from storage. The
  /// content goes through the domain's validation again, so bytes that do
  /// not make a valid widget are refused here rather than served.
  public static func decodeWidget(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> Widget {
    try withUnpacked(
      bytes, as: "gauge.v1.Widget", gauge__v1__widget__unpack, gauge__v1__widget__free_unpacked
    ) { (widget) throws(WireError) in
      guard let id = optionalString(widget.id), !id.isEmpty else {
        throw WireError(message: "gauge.v1.Widget has no id")
      }
      guard widget.has_revision != 0, widget.has_created_at_ms != 0, widget.has_updated_at_ms != 0
      else {
        throw WireError(message: "widget \"\(id)\" lacks its revision or timestamps")
      }
      guard let patch = widget.content.map({ ContentPatch($0.pointee) }) else {
        throw WireError(message: "widget \"\(id)\" has no content")
      }
      let content: Content
      do throws(WidgetError) {
        content = try Content(validating: patch)
      } catch {
        throw WireError(message: "widget \"\(id)\" is not valid: \(error.message)")
      }
      return Widget(
        id: id, name: optionalString(widget.name) ?? "", content: content,
        revision: widget.revision, createdAtMs: widget.created_at_ms,
        updatedAtMs: widget.updated_at_ms,
        staleAfterMs: widget.has_stale_after_ms != 0 ? Int64(widget.stale_after_ms) : nil,
        stale: widget.has_stale != 0 && widget.stale != 0)
    }
  }
}
