import GaugeIO
import Glibc

/// A fresh directory under /tmp, removed with everything in it by `remove`.
struct TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/gauged-store-test-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(created != nil, "mkdtemp failed: errno \(errno)")
    path = String(cString: created!)
  }

  private init(path: String) {
    self.path = path
  }

  /// A directory some test made inside another one.
  static func existing(_ path: String) -> TemporaryDirectory {
    TemporaryDirectory(path: path)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func remove() {
    Self.removeTree(path)
  }

  /// Writes `bytes` to `name`, replacing what is there.
  func write(_ bytes: [UInt8], to name: String) {
    let descriptor = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(descriptor >= 0, "cannot create \(name): errno \(errno)")
    let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    precondition(written == bytes.count)
    close(descriptor)
  }

  /// The whole content of `name`, or nil when it cannot be read.
  func read(_ name: String) -> [UInt8]? {
    let descriptor = open(file(name), O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return count == 0 ? bytes : nil }
      bytes += chunk[..<count]
    }
  }

  private static func removeTree(_ path: String) {
    if let names = Syscall.directoryEntries(at: path) {
      for name in names { removeTree(path + "/" + name) }
      rmdir(path)
    } else {
      unlink(path)
    }
  }
}
