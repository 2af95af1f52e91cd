import GaugeIO
import Glibc

/// Corpus files on disk: a path is either one input or a folder of them.
public enum CorpusFiles {
  /// Every regular file at `path` (itself, or those directly inside it),
  /// sorted by name so that replays run in a stable order.
  public static func inputs(at path: String) -> [String] {
    guard let names = Syscall.directoryEntries(at: path) else { return [path] }
    return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
  }

  public static func read(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return ferror(file) == 0 ? bytes : nil
  }

  public static func write(_ bytes: [UInt8], to path: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    return fclose(file) == 0 && written == bytes.count
  }
}
