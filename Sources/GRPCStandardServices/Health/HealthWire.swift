import GaugeProtos
import ProtobufCSupport

/// protobuf-c ⇄ grpc.health.v1 messages.
enum HealthWire {
  /// The service a HealthCheckRequest asks about ("" for the server); nil
  /// when the bytes are not a request, or the name is not UTF-8 or holds a
  /// NUL. protobuf-c would cut such a name at the NUL, so that
  /// "gauge.v1.WidgetService\0x" was answered as the widget service.
  static func decodeRequest(_ bytes: [UInt8]) -> String? {
    // service = 1
    guard StringFieldText.isValid(bytes[...], strings: [1]) else { return nil }
    return withUnpacked(
      bytes, grpc__health__v1__health_check_request__unpack,
      grpc__health__v1__health_check_request__free_unpacked
    ) { request in
      text(request.pointee.service)
    }
  }

  static func encodeResponse(_ status: ServingStatus) -> [UInt8] {
    var scratch = CScratch()
    let response = scratch.message(grpc__health__v1__health_check_response__init)
    response.pointee.has_status = 1
    response.pointee.status = Grpc__Health__V1__HealthCheckResponse__ServingStatus(
      rawValue: UInt32(status.rawValue))
    return packed(
      response, grpc__health__v1__health_check_response__get_packed_size,
      grpc__health__v1__health_check_response__pack)
  }
}
