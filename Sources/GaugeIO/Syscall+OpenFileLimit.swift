import Glibc

extension Syscall {
  /// Raises this process's limit on open descriptors (RLIMIT_NOFILE) to
  /// `wanted`, lifting the hard limit too when the process is allowed to
  /// (root), else stopping at it. Returns the soft limit now in force.
  public static func raiseOpenFileLimit(to wanted: Int) throws(IOError) -> Int {
    let limit = try openFileLimit()
    let target = rlim_t(wanted)
    guard limit.rlim_cur < target else { return Int(limit.rlim_cur) }
    var raised = rlimit(rlim_cur: target, rlim_max: max(limit.rlim_max, target))
    if setrlimit(openFileResource, &raised) != 0 {
      // Not privileged: the hard limit is as far as we may go.
      raised = rlimit(rlim_cur: min(target, limit.rlim_max), rlim_max: limit.rlim_max)
      guard setrlimit(openFileResource, &raised) == 0 else {
        throw IOError(call: "setrlimit", errno: errno)
      }
    }
    return Int(raised.rlim_cur)
  }

  /// Raises the soft limit on open descriptors to the hard limit, which
  /// any process may do, and returns it; the hard limit is left alone.
  public static func raiseOpenFileLimitToHardLimit() throws(IOError) -> Int {
    try raiseOpenFileLimit(to: Int(clamping: try openFileLimit().rlim_max))
  }

  private static func openFileLimit() throws(IOError) -> rlimit {
    var limit = rlimit()
    guard getrlimit(openFileResource, &limit) == 0 else {
      throw IOError(call: "getrlimit", errno: errno)
    }
    return limit
  }

  private static var openFileResource: __rlimit_resource_t {
    __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue))
  }
}
