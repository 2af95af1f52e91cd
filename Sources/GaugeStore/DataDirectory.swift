import GaugeIO
import Glibc
import Synchronization

/// The data directory, created when missing and held with an exclusive
/// `flock` on `gauged.lock` for as long as this value lives, so a second
/// gauged on the same directory fails at start instead of interleaving
/// writes. The lock is released by the kernel if the process dies.
final class DataDirectory: Sendable {
  static let lockFileName = "gauged.lock"
  static let databaseFileName = "gauged.sqlite3"

  let path: String
  /// -1 once released.
  private let lockDescriptor: Mutex<Int32>

  init(path: String) throws(StoreError) {
    self.path = path
    do {
      try Self.createDirectories(path)
    } catch {
      throw StoreError("cannot create data dir \(path): \(error)")
    }
    let lockPath = Self.join(path, Self.lockFileName)
    let descriptor: Int32
    do {
      descriptor = try Syscall.open(path: lockPath, flags: O_RDWR | O_CREAT)
    } catch {
      throw StoreError("cannot open \(lockPath): \(error)")
    }
    let locked: Bool
    do {
      locked = try Syscall.tryLockExclusive(fd: descriptor)
    } catch {
      Syscall.close(fd: descriptor)
      throw StoreError("cannot lock \(lockPath): \(error)")
    }
    guard locked else {
      Syscall.close(fd: descriptor)
      throw StoreError("data dir \(path) is in use by another gauged (\(lockPath) is locked)")
    }
    self.lockDescriptor = Mutex(descriptor)
  }

  deinit {
    release()
  }

  /// Lets another gauged have the directory.
  func release() {
    let descriptor = lockDescriptor.withLock { descriptor in
      defer { descriptor = -1 }
      return descriptor
    }
    if descriptor >= 0 { Syscall.close(fd: descriptor) }
  }

  var databasePath: String { Self.join(path, Self.databaseFileName) }

  /// `mkdir -p`: every missing component, in order.
  private static func createDirectories(_ path: String) throws(IOError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += component
      try Syscall.mkdir(path: prefix)
      prefix += "/"
    }
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
