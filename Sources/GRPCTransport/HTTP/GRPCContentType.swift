/// gRPC's content type: `application/grpc` (in any case), optionally
/// followed by `+proto` or `;params`. gRPC-Web's is not this.
public enum GRPCContentType {
  /// Told from the header's bytes as HTTP/2 delivers them: lowercasing a
  /// String per request showed in profiles.
  static func isNativeGRPC(_ value: UnsafeRawBufferPointer) -> Bool {
    let expected: StaticString = "application/grpc"
    let length = expected.utf8CodeUnitCount
    guard HTTPFieldSyntax.hasPrefixIgnoringCase(value, expected) else { return false }
    return value.count == length || value[length] == UInt8(ascii: "+")
      || value[length] == UInt8(ascii: ";")
  }

  /// The same for a field that arrived as a String (HTTP/1.1): gRPC proper,
  /// which needs HTTP/2.
  public static func isNativeGRPC(_ contentType: String) -> Bool {
    var contentType = contentType
    return contentType.withUTF8 { isNativeGRPC(UnsafeRawBufferPointer($0)) }
  }
}
