import CProtobufC
import GaugeDomain
import GaugeProtos
import ProtobufCSupport

/// google.rpc.Status bytes: what goes, base64-encoded, into the
/// `grpc-status-details-bin` trailer.
public enum StatusDetailsWire {
  static let badRequestTypeURL = "type.googleapis.com/google.rpc.BadRequest"

  /// A Status whose one detail is a google.rpc.BadRequest listing the
  /// violations, so clients can point at each bad field.
  public static func encodeBadRequest(
    code: Int32, message: String, violations: [FieldViolation]
  ) -> [UInt8] {
    EncodeArena.withArena { arena in
      let badRequest = arena.message(google__rpc__bad_request__init)
      let fieldViolations = violations.map { violation in
        let fieldViolation = arena.message(google__rpc__bad_request__field_violation__init)
        fieldViolation.pointee.field = arena.cString(violation.field)
        fieldViolation.pointee.description = arena.cString(violation.description)
        return Optional(fieldViolation)
      }
      badRequest.pointee.n_field_violations = fieldViolations.count
      badRequest.pointee.field_violations = arena.array(of: fieldViolations)

      let detail = arena.message(google__protobuf__any__init)
      detail.pointee.type_url = arena.cString(badRequestTypeURL)
      let size = google__rpc__bad_request__get_packed_size(badRequest)
      let value = arena.allocate(byteCount: size, alignment: 1).bindMemory(
        to: UInt8.self, capacity: size)
      detail.pointee.has_value = 1
      detail.pointee.value = ProtobufCBinaryData(
        len: google__rpc__bad_request__pack(badRequest, value), data: value)

      let status = status(code: code, message: message, in: &arena)
      status.pointee.n_details = 1
      status.pointee.details = arena.array(of: [Optional(detail)])
      return packed(status, google__rpc__status__get_packed_size, google__rpc__status__pack)
    }
  }

  static let retryInfoTypeURL = "type.googleapis.com/google.rpc.RetryInfo"

  /// A Status whose one detail is a `google.rpc.RetryInfo`: when the
  /// refused request may be tried again.
  public static func encodeRetryInfo(
    code: Int32, message: String, retryAfterNanoseconds: UInt64
  ) -> [UInt8] {
    EncodeArena.withArena { arena in
      let delay = arena.message(google__protobuf__duration__init)
      delay.pointee.has_seconds = 1
      delay.pointee.seconds = Int64(retryAfterNanoseconds / 1_000_000_000)
      delay.pointee.has_nanos = 1
      delay.pointee.nanos = Int32(retryAfterNanoseconds % 1_000_000_000)
      let retryInfo = arena.message(google__rpc__retry_info__init)
      retryInfo.pointee.retry_delay = delay

      let detail = arena.message(google__protobuf__any__init)
      detail.pointee.type_url = arena.cString(retryInfoTypeURL)
      let size = google__rpc__retry_info__get_packed_size(retryInfo)
      let value = arena.allocate(byteCount: max(size, 1), alignment: 1).bindMemory(
        to: UInt8.self, capacity: max(size, 1))
      detail.pointee.has_value = 1
      detail.pointee.value = ProtobufCBinaryData(
        len: google__rpc__retry_info__pack(retryInfo, value), data: value)

      let status = status(code: code, message: message, in: &arena)
      status.pointee.n_details = 1
      status.pointee.details = arena.array(of: [Optional(detail)])
      return packed(status, google__rpc__status__get_packed_size, google__rpc__status__pack)
    }
  }

  /// A Status with no details.
  public static func encodeStatus(code: Int32, message: String) -> [UInt8] {
    EncodeArena.withArena { arena in
      return packed(
        status(code: code, message: message, in: &arena), google__rpc__status__get_packed_size,
        google__rpc__status__pack)
    }
  }

  private static func status(
    code: Int32, message: String, in arena: inout EncodeArena
  ) -> UnsafeMutablePointer<Google__Rpc__Status> {
    let status = arena.message(google__rpc__status__init)
    status.pointee.has_code = 1
    status.pointee.code = code
    status.pointee.message = arena.cString(message)
    return status
  }
}
