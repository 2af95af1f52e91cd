import GaugeWire

/// What a client reads must be what the method promises: every
/// WidgetService response decodes as its type, and a subscriber never sees
/// a widget go back to an older revision, except after a reset, which
/// starts the story over.
enum ResponseCheck {
  static let service = "/gauge.v1.WidgetService/"

  static func verify(_ call: RecordedCall) throws(FuzzFinding) {
    guard call.path.hasPrefix(service) else { return }
    let method = call.path.dropFirst(service.count)
    var revisions: [String: UInt64] = [:]
    for (index, message) in call.messages.enumerated() {
      let outcome: Result<Void, WireError> = message.withUnsafeBytes { bytes in
        do throws(WireError) {
          try decode(bytes, of: method, index: index, revisions: &revisions)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      if case .failure(let error) = outcome {
        throw FuzzFinding("\(call.path) message \(index) does not decode: \(error)")
      }
    }
  }

  private static func decode(
    _ bytes: UnsafeRawBufferPointer, of method: Substring, index: Int,
    revisions: inout [String: UInt64]
  ) throws(WireError) {
    switch method {
    case "PutWidget": _ = try WidgetWire.decodePutWidgetResponse(bytes)
    case "UpdateWidget", "GetWidget": _ = try WidgetWire.decodeWidgetResponse(bytes)
    case "ListWidgets": _ = try WidgetWire.decodeListWidgetsResponse(bytes)
    case "PublishValues": _ = try WidgetWire.decodePublishSummary(bytes)
    case "Subscribe":
      try checkOrder(of: WidgetWire.decodeWidgetEvent(bytes), in: &revisions, at: index)
    default: break
    }
  }

  private static func checkOrder(
    of event: WidgetEventWire, in revisions: inout [String: UInt64], at index: Int
  ) throws(WireError) {
    let id: String
    let revision: UInt64
    switch event {
    case .upsert(let widget): (id, revision) = (widget.id, widget.revision)
    case .removed(let removedID, let removedRevision): (id, revision) = (removedID, removedRevision)
    case .value(let valueID, _, _, let valueRevision): (id, revision) = (valueID, valueRevision)
    case .reset:
      revisions.removeAll()
      return
    case .synced: return
    }
    if let earlier = revisions[id], revision <= earlier {
      throw WireError(
        message: "event \(index) takes widget \(id) from revision \(earlier) back to \(revision)")
    }
    revisions[id] = revision
  }
}
