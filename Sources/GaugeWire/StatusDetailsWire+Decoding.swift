import CProtobufC
import GaugeDomain
import GaugeProtos

extension StatusDetailsWire {
  /// Reads what `encodeBadRequest` (or any gRPC server) put in
  /// `grpc-status-details-bin`.
  public static func decode(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> StatusDetails {
    try withUnpacked(
      bytes, as: "google.rpc.Status", google__rpc__status__unpack,
      google__rpc__status__free_unpacked
    ) { status throws(WireError) in
      var violations: [FieldViolation] = []
      for detail in messages(status.n_details, status.details)
      where optionalString(detail.type_url)?.hasSuffix("/google.rpc.BadRequest") == true {
        let value = UnsafeRawBufferPointer(start: detail.value.data, count: detail.value.len)
        violations += try withUnpacked(
          value, as: "google.rpc.BadRequest", google__rpc__bad_request__unpack,
          google__rpc__bad_request__free_unpacked
        ) { badRequest in
          messages(badRequest.n_field_violations, badRequest.field_violations).map {
            FieldViolation(
              field: optionalString($0.field) ?? "",
              description: optionalString($0.description) ?? "")
          }
        }
      }
      return StatusDetails(
        code: status.code, message: optionalString(status.message) ?? "", violations: violations)
    }
  }
}
