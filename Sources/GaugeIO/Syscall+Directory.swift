import Glibc

extension Syscall {
  /// The names in a folder, "." and ".." aside, in the order the file
  /// system gives them; nil when `path` is no folder that can be opened.
  public static func directoryEntries(at path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }
}
