import GRPCCore

/// One file of `web/` as it is served: its bytes, the same gzipped when that
/// is smaller, its media type, and entity tags for revalidation. Everything
/// is computed once at start, never per request.
struct WebAsset: Sendable {
  let contentType: String
  let identity: [UInt8]
  /// nil when gzip would not make the file smaller (the icon, tiny files).
  let gzipped: [UInt8]?
  /// Strong tags, one per representation (RFC 9110 section 8.8.3): the
  /// gzipped bytes are a different representation of the same version.
  let etag: String
  let gzippedETag: String

  init(path: String, bytes: [UInt8], deflater: GzipDeflater) {
    contentType = Self.contentType(ofPath: path)
    identity = bytes
    let compressed = deflater.deflate(bytes)
    gzipped = compressed.flatMap { $0.count < bytes.count ? $0 : nil }
    let digest = Self.fnv1a(bytes)
    etag = "\"\(digest)\""
    gzippedETag = "\"\(digest)-gz\""
  }

  /// Whether an `If-None-Match` names the version held here, in either
  /// representation (a cache may hold either, and both are current).
  func matches(ifNoneMatch: String) -> Bool {
    ifNoneMatch.split(separator: ",").contains { candidate in
      var tag = candidate.trimmingCharacters(in: " \t")
      if tag == "*" { return true }
      // Weak comparison, as If-None-Match asks (RFC 9110 section 13.1.2).
      if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
      return tag == etag || tag == gzippedETag
    }
  }

  /// By extension: the files in `web/` are few and of known kinds.
  static func contentType(ofPath path: String) -> String {
    let fileExtension = path.split(separator: ".").last.map(String.init) ?? ""
    switch fileExtension {
    case "html": return "text/html; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "js", "mjs": return "text/javascript; charset=utf-8"
    case "svg": return "image/svg+xml"
    case "json": return "application/json"
    case "txt": return "text/plain; charset=utf-8"
    case "png": return "image/png"
    default: return "application/octet-stream"
    }
  }

  /// 64-bit FNV-1a, hex: a tag only has to change when the bytes do, and
  /// no one gains by forging one for files everyone can read.
  private static func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    let skipped = Set(set.unicodeScalars)
    var view = unicodeScalars[...]
    while let first = view.first, skipped.contains(first) { view = view.dropFirst() }
    while let last = view.last, skipped.contains(last) { view = view.dropLast() }
    return String(String.UnicodeScalarView(view))
  }
}
