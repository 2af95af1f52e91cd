import CProtobufC
import GaugeProtos
import ProtoJSON

/// The gauge.v1 mappings the tests use, built once.
enum Messages {
  static let widget = mapping(gauge__v1__widget__descriptor)
  static let content = mapping(gauge__v1__content__descriptor)
  static let widgetEvent = mapping(gauge__v1__widget_event__descriptor)
  static let listWidgetsResponse = mapping(gauge__v1__list_widgets_response__descriptor)
  static let listWidgetsRequest = mapping(gauge__v1__list_widgets_request__descriptor)
  static let putWidgetRequest = mapping(gauge__v1__put_widget_request__descriptor)
  static let subscribeRequest = mapping(gauge__v1__subscribe_request__descriptor)

  private static func mapping(_ descriptor: ProtobufCMessageDescriptor) -> ProtoJSONMessage {
    withUnsafePointer(to: descriptor) { ProtoJSONMessage($0) }
  }
}

extension ProtoJSONMessage {
  /// Binary → JSON as text.
  func json(_ wire: WireBytes) throws(ProtoJSONError) -> String {
    try json(wire.bytes)
  }

  func json(_ bytes: [UInt8]) throws(ProtoJSONError) -> String {
    // withUnsafeBytes rethrows untyped: the error comes out as a Result.
    let out = try bytes.withUnsafeBytes { buffer in
      Result { () throws(ProtoJSONError) in try json(fromBinary: buffer) }
    }.get()
    return String(decoding: out, as: UTF8.self)
  }

  /// JSON text → binary.
  func binary(_ text: String) throws(ProtoJSONError) -> [UInt8] {
    try binary(bytes: Array(text.utf8))
  }

  func binary(bytes: [UInt8]) throws(ProtoJSONError) -> [UInt8] {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(ProtoJSONError) in try binary(fromJSON: buffer) }
    }.get()
  }

  /// The error JSON `text` gets, nil when it transcodes.
  func jsonError(_ text: String) -> ProtoJSONError? {
    jsonError(bytes: Array(text.utf8))
  }

  func jsonError(bytes: [UInt8]) -> ProtoJSONError? {
    do {
      _ = try binary(bytes: bytes)
      return nil
    } catch {
      return error
    }
  }

  /// The error `bytes` get, nil when they transcode.
  func binaryError(_ wire: WireBytes) -> ProtoJSONError? {
    do {
      _ = try json(wire)
      return nil
    } catch {
      return error
    }
  }
}
