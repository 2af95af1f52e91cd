import GRPCCore
import GaugeJSON

/// A status as the Connect protocol writes it: the code by name, the HTTP
/// status a unary error answers with, and the JSON error whose `details`
/// carry the `google.rpc.Status` details (a `google.rpc.BadRequest` with
/// its field violations) as connect clients decode them.
enum ConnectError {
  static func codeName(_ code: GRPCStatus.Code) -> String {
    switch code {
    case .ok: "ok"
    case .cancelled: "canceled"
    case .unknown: "unknown"
    case .invalidArgument: "invalid_argument"
    case .deadlineExceeded: "deadline_exceeded"
    case .notFound: "not_found"
    case .alreadyExists: "already_exists"
    case .permissionDenied: "permission_denied"
    case .resourceExhausted: "resource_exhausted"
    case .failedPrecondition: "failed_precondition"
    case .aborted: "aborted"
    case .outOfRange: "out_of_range"
    case .unimplemented: "unimplemented"
    case .internal: "internal"
    case .unavailable: "unavailable"
    case .dataLoss: "data_loss"
    case .unauthenticated: "unauthenticated"
    }
  }

  /// The protocol reference's table.
  static func httpStatus(_ code: GRPCStatus.Code) -> Int {
    switch code {
    case .ok: 200
    case .cancelled: 499
    case .unknown, .internal, .dataLoss: 500
    case .invalidArgument, .failedPrecondition, .outOfRange: 400
    case .deadlineExceeded: 504
    case .notFound: 404
    case .alreadyExists, .aborted: 409
    case .permissionDenied: 403
    case .resourceExhausted: 429
    case .unimplemented: 501
    case .unavailable: 503
    case .unauthenticated: 401
    }
  }

  /// `{"code": ..., "message": ..., "details": [{"type", "value"}]}`.
  static func json(_ status: GRPCStatus) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("code", .string(codeName(status.code)))]
    if !status.message.isEmpty { members.append(("message", .string(status.message))) }
    let details = status.details.map(Self.details(ofStatus:)) ?? []
    if !details.isEmpty {
      members.append(
        (
          "details",
          .array(
            details.map { detail in
              .object([
                ("type", .string(detail.type)),
                ("value", .string(Base64.encode(detail.value))),
              ])
            })
        ))
    }
    return .object(members)
  }

  static func body(_ status: GRPCStatus) -> [UInt8] {
    Array(JSONWriter.compact(json(status)).utf8)
  }

  /// The `google.protobuf.Any` entries of a serialized `google.rpc.Status`
  /// (field 3), each with its type name (the type URL after its last `/`).
  static func details(ofStatus bytes: [UInt8]) -> [(type: String, value: [UInt8])] {
    var found: [(type: String, value: [UInt8])] = []
    var reader = ProtoWireReader(bytes[...])
    while let field = try? reader.next() {
      guard field.number == 3, let any = field.value.message else { continue }
      var typeURL = ""
      var value: [UInt8] = []
      var anyReader = ProtoWireReader(any)
      while let member = try? anyReader.next() {
        if member.number == 1 { typeURL = member.value.text ?? "" }
        if member.number == 2, let bytes = member.value.message { value = Array(bytes) }
      }
      let type = typeURL.split(separator: "/").last.map(String.init) ?? typeURL
      found.append((type, value))
    }
    return found
  }
}
