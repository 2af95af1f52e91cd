import GaugeIO
import Glibc
import Synchronization

/// The data directory, created when missing and held with an exclusive
/// `flock` on `gauged.lock` for as long as this value lives, so a second
/// gauged on the same directory fails at start instead of interleaving
/// writes. The directory itself is locked too, where the file system
/// allows it: a lock file deleted by hand would otherwise let a second
/// gauged in. The kernel releases both if the process dies.
final class DataDirectory: Sendable {
  static let lockFileName = "gauged.lock"
  static let databaseFileName = "gauged.sqlite3"
  /// Tries at taking the lock, 10 ms apart.
  static let lockAttempts = 50

  let path: String
  /// -1 once released.
  private let lockDescriptor: Mutex<Int32>
  /// The directory's own descriptor, locked; -1 when released or when the
  /// file system does not lock directories.
  private let directoryDescriptor: Mutex<Int32>

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
    var locked = false
    // A lock released a moment ago in this process can still be held by a
    // child another thread forked: it has a copy of every descriptor until
    // it execs (test processes start servers while reopening stores). So a
    // held lock is tried again for a short while before it counts as
    // another gauged's.
    for attempt in 0..<Self.lockAttempts {
      do {
        locked = try Syscall.tryLockExclusive(fd: descriptor)
      } catch {
        Syscall.close(fd: descriptor)
        throw StoreError("cannot lock \(lockPath): \(error)")
      }
      if locked || attempt == Self.lockAttempts - 1 { break }
      usleep(10_000)
    }
    guard locked else {
      Syscall.close(fd: descriptor)
      throw StoreError("data dir \(path) is in use by another gauged (\(lockPath) is locked)")
    }
    let directory: Int32
    var directoryLock = Self.lockDirectory(path)
    for _ in 1..<Self.lockAttempts {
      guard case .busy = directoryLock else { break }
      usleep(10_000)
      directoryLock = Self.lockDirectory(path)
    }
    switch directoryLock {
    case .held(let descriptor): directory = descriptor
    case .unsupported: directory = -1
    case .busy:
      Syscall.close(fd: descriptor)
      throw StoreError("data dir \(path) is in use by another gauged (the directory is locked)")
    }
    self.lockDescriptor = Mutex(descriptor)
    self.directoryDescriptor = Mutex(directory)
  }

  private enum DirectoryLock {
    case held(Int32)
    /// The file system does not lock directories; the lock file guards it.
    case unsupported
    case busy
  }

  private static func lockDirectory(_ path: String) -> DirectoryLock {
    guard let descriptor = try? Syscall.open(path: path, flags: O_RDONLY | O_DIRECTORY) else {
      return .unsupported
    }
    let locked = Result { () throws(IOError) in try Syscall.tryLockExclusive(fd: descriptor) }
    guard case .success(true) = locked else {
      Syscall.close(fd: descriptor)
      return locked == .success(false) ? .busy : .unsupported
    }
    return .held(descriptor)
  }

  deinit {
    release()
  }

  /// Lets another gauged have the directory.
  func release() {
    Self.close(lockDescriptor)
    Self.close(directoryDescriptor)
  }

  /// Closes the descriptor once, however many times it is asked.
  private static func close(_ held: borrowing Mutex<Int32>) {
    let descriptor = held.withLock { descriptor in
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

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
