import GaugeFuzz
import Testing

/// Every input kept in `fuzz/corpus` (the seeds, and what fuzzing found
/// worth keeping, each crash among them once fixed) runs again here, so a
/// fixed finding stays fixed without a fuzzer in the build.
@Suite struct CorpusReplayTests {
  static let corpus =
    String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
    .withRootSlash + "/fuzz/corpus"

  @Test(arguments: FuzzTarget.allCases)
  func corpusReplaysWithoutFinding(_ target: FuzzTarget) throws {
    let files = CorpusFiles.inputs(at: "\(Self.corpus)/\(target.rawValue)")
    let seeds = try SeedCorpus.inputs(for: target)
    #expect(files.count >= seeds.count, "the corpus holds at least the seeds")
    for file in files {
      let bytes = try #require(CorpusFiles.read(file), "cannot read \(file)")
      do throws(FuzzFinding) {
        try target.run(bytes)
      } catch {
        Issue.record("\(file): \(error)")
      }
    }
  }

  @Test(arguments: FuzzTarget.allCases)
  func seedsRunWithoutFinding(_ target: FuzzTarget) throws {
    for (name, bytes) in try SeedCorpus.inputs(for: target) {
      do throws(FuzzFinding) {
        try target.run(bytes)
      } catch {
        Issue.record("seed \(name): \(error)")
      }
    }
  }
}

extension String {
  fileprivate var withRootSlash: String { hasPrefix("/") ? self : "/" + self }
}
