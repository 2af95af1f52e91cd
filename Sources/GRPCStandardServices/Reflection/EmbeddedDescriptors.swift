import GRPCCore

import GRPCTransport
import GaugeDescriptorSet

/// The FileDescriptorSet compiled from `proto/` at build time
/// (scripts/generate-protos), indexed once per process.
enum EmbeddedDescriptors {
  static let index: Result<DescriptorIndex, ProtoWireReader.Malformed> = {
    let bytes = Array(
      UnsafeBufferPointer(
        start: gauged_descriptor_set_bytes(), count: gauged_descriptor_set_count()))
    return Result { () throws(ProtoWireReader.Malformed) in
      try DescriptorIndex(fileDescriptorSet: bytes)
    }
  }()
}

/// What the schema in `proto/` says about calling its methods.
public enum EmbeddedMethodTraits {
  /// Streaming and idempotency of every method in `proto/`, by
  /// `/package.Service/Method` path.
  public static var byPath: [String: RPCMethodTraits] {
    guard case .success(let index) = EmbeddedDescriptors.index else { return [:] }
    return index.files.values.reduce(into: [:]) { $0.merge($1.methodTraits) { first, _ in first } }
  }
}
