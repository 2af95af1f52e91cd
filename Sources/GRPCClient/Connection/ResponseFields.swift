import GRPCCore

/// One header block of a response (the headers, or the trailers) as it
/// arrived, bounded like HTTP/2 counts a header list.
struct ResponseFields {
  private(set) var fields: [(name: String, value: String)] = []
  private(set) var byteCount = 0

  /// False once the block would grow over `limit` bytes.
  mutating func add(
    name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, limit: Int
  ) -> Bool {
    byteCount += name.count + value.count + 32
    guard byteCount <= limit else { return false }
    fields.append(
      (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    return true
  }

  func value(_ name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  /// Custom metadata: everything HTTP/2 and gRPC do not reserve, `-bin`
  /// values base64-decoded (a value that is not base64 is dropped).
  var metadata: Metadata {
    var metadata = Metadata()
    for (name, value) in fields where !Metadata.isReserved(name) {
      if name.hasSuffix("-bin") {
        if let bytes = Base64.decode(value.utf8) { metadata.add(name, .binary(bytes)) }
      } else {
        metadata.add(name, .text(value))
      }
    }
    return metadata
  }

  /// Why these response headers do not start a response of `callProtocol`,
  /// or nil when they do: `:status` 200 and the protocol's content type.
  func headerProblem(for callProtocol: CallProtocol) -> GRPCStatus? {
    guard let httpStatus = value(":status") else {
      return GRPCStatus(.internal, "response headers without :status")
    }
    guard httpStatus == "200" else {
      return GRPCStatus(
        Self.code(forHTTPStatus: httpStatus), "unexpected HTTP status \(httpStatus)")
    }
    let contentType = value("content-type") ?? ""
    guard callProtocol.accepts(contentType: contentType) else {
      return GRPCStatus(.unknown, "unexpected content-type \"\(contentType)\"")
    }
    return nil
  }

  /// The call's status from `grpc-status`, `grpc-message` and
  /// `grpc-status-details-bin`.
  var status: GRPCStatus {
    guard let raw = value("grpc-status") else {
      return GRPCStatus(.internal, "the response ended without grpc-status")
    }
    guard let number = Int32(raw), let code = GRPCStatus.Code(rawValue: number) else {
      return GRPCStatus(.unknown, "unknown grpc-status \"\(raw)\"")
    }
    let message = value("grpc-message").map { PercentEncoding.decode($0) } ?? ""
    let details = value("grpc-status-details-bin").flatMap { Base64.decode($0.utf8) }
    return GRPCStatus(code, message, details: details)
  }

  /// gRPC's mapping for responses that are not gRPC at all
  /// (doc/http-grpc-status-mapping.md).
  static func code(forHTTPStatus status: String) -> GRPCStatus.Code {
    switch status {
    case "400": .internal
    case "401": .unauthenticated
    case "403": .permissionDenied
    case "404": .unimplemented
    case "429", "502", "503", "504": .unavailable
    default: .unknown
    }
  }
}
