import Glibc

/// Which file a path named when it was looked at: a path can be removed
/// and made again, and only the same device and inode are the same file.
public struct FileIdentity: Sendable, Equatable {
  public var device: UInt64
  public var inode: UInt64
  public var isSocket: Bool
}

extension Syscall {
  /// The file at `path`, links not followed; nil when nothing is there.
  public static func fileIdentity(at path: String) throws(IOError) -> FileIdentity? {
    var status = stat()
    if lstat(path, &status) != 0 {
      if errno == ENOENT { return nil }
      throw IOError(call: "lstat", errno: errno)
    }
    return FileIdentity(
      device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
      isSocket: status.st_mode & S_IFMT == S_IFSOCK)
  }

  public static func unlink(path: String) throws(IOError) {
    _ = try retryingInterrupts("unlink") { Glibc.unlink(path) }
  }
}
