import Synchronization

/// A fixed set of event loops, each running on its own thread once started.
public final class EventLoopGroup: Sendable {
  public let loops: [EventLoop]
  private let threads = Mutex<[PosixThread]>([])
  private let nextIndex = Atomic<Int>(0)

  public init(threads count: Int) throws(IOError) {
    precondition(count > 0, "an EventLoopGroup needs at least one thread")
    var loops: [EventLoop] = []
    for _ in 0..<count {
      loops.append(try EventLoop())
    }
    self.loops = loops
  }

  /// Starts each loop on a thread named `gauge-io-<index>`; a no-op while already started.
  /// Failing to create a thread is fatal: the server cannot serve without its loops.
  public func start() {
    threads.withLock { threads in
      guard threads.isEmpty else { return }
      for (index, loop) in loops.enumerated() {
        do {
          threads.append(try PosixThread.spawn(name: "gauge-io-\(index)") { loop.run() })
        } catch {
          fatalError("cannot start event loop thread: \(error)")
        }
      }
    }
  }

  /// The loops in round-robin order.
  public func next() -> EventLoop {
    let ticket = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
    return loops[Int(UInt(bitPattern: ticket) % UInt(loops.count))]
  }

  /// Waits for every loop's thread to finish, for loops that stop themselves (each calling
  /// `stop()` on its own loop once its work is done).
  public func join() {
    precondition(
      !loops.contains { $0.inEventLoop },
      "join() on one of the group's own loops would wait for itself")
    let started = threads.withLock { threads in
      defer { threads.removeAll() }
      return threads
    }
    for thread in started {
      thread.join()
    }
  }

  /// Stops every loop and waits for their threads to finish. Loops cannot be restarted.
  public func stopAndJoin() {
    precondition(
      !loops.contains { $0.inEventLoop },
      "stopAndJoin() on one of the group's own loops would wait for itself")
    for loop in loops {
      loop.stop()
    }
    join()
  }
}
