import CLinuxIO
import Glibc

/// A joinable pthread running one closure; GaugeIO avoids Foundation's `Thread`.
public struct PosixThread: Sendable {
  private let handle: pthread_t

  /// The closure and name handed to the new thread through pthread_create's context pointer.
  private final class Start: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// `name` is truncated to the 15 bytes Linux keeps.
  public static func spawn(name: String, _ body: @escaping @Sendable () -> Void) throws(IOError)
    -> PosixThread
  {
    let start = Unmanaged.passRetained(Start(name: name, body: body))
    var handle = pthread_t()
    let result = pthread_create(
      &handle, nil,
      { context in
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        // Best effort: a thread name only helps debugging.
        let name = Array(start.name.utf8.prefix(15).map { CChar(bitPattern: $0) }) + [0]
        _ = pthread_setname_np(pthread_self(), name)
        start.body()
        return nil
      }, start.toOpaque())
    guard result == 0 else {
      start.release()
      // pthread_create returns its error rather than setting errno.
      throw IOError(call: "pthread_create", errno: result)
    }
    return PosixThread(handle: handle)
  }

  public func join() {
    let result = pthread_join(handle, nil)
    precondition(result == 0, "\(IOError(call: "pthread_join", errno: result))")
  }
}
