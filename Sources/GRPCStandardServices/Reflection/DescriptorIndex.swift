import GRPCCore

/// The files reflection serves, found by file name or by a symbol they
/// declare.
struct DescriptorIndex: Sendable {
  private(set) var files: [String: FileDescriptorSummary] = [:]
  private var fileBySymbol: [String: String] = [:]

  init(files: some Sequence<FileDescriptorSummary>) {
    for file in files {
      self.files[file.name] = file
      for symbol in file.symbols { fileBySymbol[symbol] = file.name }
    }
  }

  /// Every file of a serialized `google.protobuf.FileDescriptorSet`.
  init(fileDescriptorSet bytes: [UInt8]) throws(ProtoWireReader.Malformed) {
    // FileDescriptorSet.file is field 1.
    var summaries: [FileDescriptorSummary] = []
    var reader = ProtoWireReader(bytes[...])
    while let (number, value) = try reader.next() {
      if number == 1, let body = value.message {
        summaries.append(try FileDescriptorSummary(parsing: body))
      }
    }
    self.init(files: summaries)
  }

  /// Only the files declaring `services`, and the files they import,
  /// transitively: what a client needs to call those services, and nothing
  /// the server does not serve.
  func serving(_ services: [String]) -> DescriptorIndex {
    let roots = services.compactMap { fileBySymbol[$0] }
    var kept: [FileDescriptorSummary] = []
    var seen = Set<String>()
    for root in roots { collect(root, into: &kept, seen: &seen) }
    return DescriptorIndex(files: kept)
  }

  func fileName(containingSymbol symbol: String) -> String? {
    fileBySymbol[symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol]
  }

  /// The file, then every file it imports, transitively, each once; nil
  /// when the file is not served.
  func fileWithDependencies(_ name: String) -> [FileDescriptorSummary]? {
    guard files[name] != nil else { return nil }
    var out: [FileDescriptorSummary] = []
    var seen = Set<String>()
    collect(name, into: &out, seen: &seen)
    return out
  }

  private func collect(
    _ name: String, into out: inout [FileDescriptorSummary], seen: inout Set<String>
  ) {
    guard let file = files[name], seen.insert(name).inserted else { return }
    out.append(file)
    for dependency in file.dependencies { collect(dependency, into: &out, seen: &seen) }
  }
}
