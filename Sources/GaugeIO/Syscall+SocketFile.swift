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

  /// Whether a process accepts connections on the Unix socket at
  /// `address`. Only a refusal says no: a full backlog or any other failure
  /// may be a live server, whose file must not be taken.
  static func acceptsConnections(at address: SocketAddress) -> Bool {
    let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    guard let fd = try? socket(domain: address.family, type: type, protocol: 0) else {
      return true
    }
    defer { close(fd: fd) }
    do {
      _ = try connect(fd: fd, address: address)
      return true
    } catch {
      return error.errno != ECONNREFUSED
    }
  }
}
