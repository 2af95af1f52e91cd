import Foundation
import Testing

@testable import GaugeService

/// The binary serves what web/ holds: the embedded C is regenerated with
/// the files (`scripts/generate-web-assets`), and this fails when it was not.
@Suite struct WebAssetCatalogueTests {
  static let webDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("web")

  @Test func embeddedFilesAreWebsFilesByteForByte() throws {
    let catalogue = WebAssetCatalogue.embedded()
    let root = Self.webDirectory.standardizedFileURL.path + "/"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    var onDisk: [String] = []
    while let relative = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root + relative, isDirectory: &isDirectory)
      let name = relative.split(separator: "/").last.map(String.init) ?? relative
      if isDirectory.boolValue || name.hasPrefix(".") { continue }
      onDisk.append(relative)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + relative)))
      // A Bool, not the arrays: a failure prints the message, not every byte.
      let current = catalogue[relative]?.identity == bytes
      #expect(current, "web/\(relative) changed: run scripts/generate-web-assets")
    }
    #expect(catalogue.paths == onDisk.sorted(), "run scripts/generate-web-assets")
    #expect(onDisk.contains("index.html"))
  }
}
