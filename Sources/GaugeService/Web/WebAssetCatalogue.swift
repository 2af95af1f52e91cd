import GRPCCore
import GaugeWebAssets

/// The files of `web/` by their path there (`index.html`,
/// `assets/draw.js`), embedded in the binary by
/// `scripts/generate-web-assets`, so a gauged binary serves its dashboard
/// with nothing beside it on disk.
public struct WebAssetCatalogue: Sendable {
  private let assets: [String: WebAsset]

  /// `files`: each path under `web/` with its bytes (tests bring their own).
  public init(files: [(path: String, bytes: [UInt8])]) {
    let deflater = GzipDeflater()
    var assets: [String: WebAsset] = [:]
    for file in files {
      assets[file.path] = WebAsset(path: file.path, bytes: file.bytes, deflater: deflater)
    }
    self.assets = assets
  }

  /// What `scripts/generate-web-assets` embedded.
  public static func embedded() -> WebAssetCatalogue {
    guard let table = gauged_web_assets() else { return WebAssetCatalogue(files: []) }
    let files = (0..<gauged_web_asset_count()).map { index in
      let entry = table[index]
      let bytes =
        entry.count == 0 ? [] : Array(UnsafeBufferPointer(start: entry.bytes, count: entry.count))
      return (path: String(cString: entry.path), bytes: bytes)
    }
    return WebAssetCatalogue(files: files)
  }

  subscript(path: String) -> WebAsset? { assets[path] }

  var paths: [String] { assets.keys.sorted() }
}
