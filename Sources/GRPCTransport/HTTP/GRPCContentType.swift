/// Content types told apart as Strings, for requests that arrive as an
/// `HTTPRequest` (HTTP/1.1); HTTP/2 requests are told from their bytes in
/// `RequestHead`.
public enum GRPCContentType {
  /// `application/grpc`, `application/grpc+proto`, `application/grpc;...`:
  /// gRPC proper, which needs HTTP/2 (gRPC-Web is not this).
  public static func isNativeGRPC(_ contentType: String) -> Bool {
    let lowered = contentType.lowercased()
    guard lowered.hasPrefix("application/grpc") else { return false }
    let rest = lowered.dropFirst("application/grpc".count)
    return rest.isEmpty || rest.first == "+" || rest.first == ";"
  }
}
