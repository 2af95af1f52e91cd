import CProtobufC
import GaugeDomain
import GaugeProtos
import GaugeWire
import Testing

@Suite struct StatusDetailsTests {
  @Test func badRequestReadsBackAsStatusWithOneBadRequestDetail() {
    let violations = [
      FieldViolation(field: "content.gauge.value", description: "7 is outside [0, 5]"),
      FieldViolation(field: "id", description: "must match ^[a-zA-Z0-9][a-zA-Z0-9_-]{0,127}$"),
    ]
    let bytes = StatusDetailsWire.encodeBadRequest(
      code: 3, message: "content.gauge.value: 7 is outside [0, 5]; id: …", violations: violations)

    let read = unpackedWithC(bytes, google__rpc__status__unpack, google__rpc__status__free_unpacked)
    {
      status in
      let details = UnsafeBufferPointer(start: status.details, count: status.n_details).map {
        $0!.pointee
      }
      let badRequests = details.map { detail in
        [UInt8](UnsafeBufferPointer(start: detail.value.data, count: detail.value.len))
      }
      return (
        code: status.has_code == 1 ? status.code : nil, message: string(status.message),
        typeURLs: details.map { string($0.type_url) }, badRequests: badRequests
      )
    }
    #expect(read?.code == 3)
    #expect(read?.message == "content.gauge.value: 7 is outside [0, 5]; id: …")
    #expect(read?.typeURLs == ["type.googleapis.com/google.rpc.BadRequest"])

    let decoded = unpackedWithC(
      read?.badRequests.first ?? [], google__rpc__bad_request__unpack,
      google__rpc__bad_request__free_unpacked
    ) { badRequest in
      UnsafeBufferPointer(start: badRequest.field_violations, count: badRequest.n_field_violations)
        .map {
          FieldViolation(
            field: string($0!.pointee.field)!, description: string($0!.pointee.description)!)
        }
    }
    #expect(decoded == violations)
  }

  @Test func statusWithoutDetails() {
    let bytes = StatusDetailsWire.encodeStatus(code: 5, message: "widget \"x\" not found")
    let read = unpackedWithC(bytes, google__rpc__status__unpack, google__rpc__status__free_unpacked)
    {
      status in (code: status.code, message: string(status.message), details: status.n_details)
    }
    #expect(read?.code == 5)
    #expect(read?.message == "widget \"x\" not found")
    #expect(read?.details == 0)
  }

  @Test func aZeroStatusStillWritesItsFields() {
    #expect(StatusDetailsWire.encodeStatus(code: 0, message: "") == [0x08, 0x00, 0x12, 0x00])
  }
}
