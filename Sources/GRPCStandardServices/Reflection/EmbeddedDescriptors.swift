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
