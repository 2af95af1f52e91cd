/// How deep objects and arrays may nest, both ways. JSONByteWriter holds
/// 63 open containers, so JSON is read to the same depth: whatever is
/// read can be written back.
enum NestingLimit {
  static let depth = 63

  static func check(_ depth: Int) throws(ProtoJSONError) {
    guard depth <= Self.depth else { throw .body("nests deeper than \(Self.depth) levels") }
  }
}
