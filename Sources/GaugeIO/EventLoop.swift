import CLinuxIO
import Glibc
import Synchronization

/// One thread's epoll loop: descriptor readiness, timers, work handed in from other threads,
/// and end-of-turn callbacks.
///
/// Each turn waits in `epoll_wait` (until the next timer at the latest), then runs, in order:
/// the handlers of ready descriptors, the work queued with `execute`, the timers that are due,
/// and the `afterTurn` callbacks. Registration is level-triggered.
///
/// Only `execute`, `stop` and `inEventLoop` may be used from any thread. Everything else
/// belongs to the loop thread, or to whichever single thread sets the loop up before `run()`.
//
// @unchecked Sendable: the cross-thread state (`inbox`, `loopThread`, and the two descriptors
// fixed at init) is behind a Mutex, an Atomic, or immutable; every other stored property is
// touched only on the loop thread, which the loop-thread-only methods check with a
// precondition.
public final class EventLoop: @unchecked Sendable {
  private struct Inbox {
    var tasks: [@Sendable () -> Void] = []
    var stopRequested = false
    /// `run()` has returned: work handed in from now on would never run.
    var hasFinished = false
  }

  private struct Registration {
    var handler: any EventLoopHandler
    var interest: Interest
    /// Distinguishes this registration from earlier ones of the same descriptor number, so an
    /// event queued for a descriptor that was closed and reused in the same batch is dropped.
    var generation: UInt32
  }

  private static let eventBatchSize = 256
  /// The eventfd's generation; registrations count from 1.
  private static let wakeGeneration: UInt32 = 0

  private let inbox = Mutex(Inbox())
  /// The `pthread_t` running `run()`, or 0.
  private let loopThread = Atomic<UInt>(0)
  private let epollFD: Int32
  private let wakeFD: Int32

  private let events: UnsafeMutableBufferPointer<epoll_event>
  private var registrations: [Registration?] = []
  private var nextGeneration: UInt32 = 1
  private var timers = TimerQueue()
  private var dueTimers: [TimerHandle] = []
  // Queues are swapped with an empty spare before running, so work queued while they run waits
  // for the next turn and neither array reallocates in the steady state.
  private var afterTurnWork: [() -> Void] = []
  private var runningAfterTurn = false
  private var runningAfterTurnWork: [() -> Void] = []
  private var runningTasks: [@Sendable () -> Void] = []

  /// The time at the start of the current turn; timers are scheduled relative to it.
  public private(set) var now: ContinuousClock.Instant

  public init() throws(IOError) {
    let epollFD = try Syscall.epollCreate()
    let wakeFD: Int32
    do throws(IOError) {
      wakeFD = try Syscall.eventfd()
      do throws(IOError) {
        try Syscall.epollControl(
          epollFD: epollFD, operation: EPOLL_CTL_ADD, fd: wakeFD, events: EPOLLIN.rawValue,
          data: Self.eventData(fd: wakeFD, generation: Self.wakeGeneration))
      } catch {
        Syscall.close(fd: wakeFD)
        throw error
      }
    } catch {
      Syscall.close(fd: epollFD)
      throw error
    }
    self.epollFD = epollFD
    self.wakeFD = wakeFD
    events = .allocate(capacity: Self.eventBatchSize)
    now = .now
  }

  deinit {
    events.deallocate()
    Syscall.close(fd: wakeFD)
    Syscall.close(fd: epollFD)
  }

  public var inEventLoop: Bool {
    // Relaxed is enough: only the loop thread itself can observe its own id here.
    pthread_equal(loopThread.load(ordering: .relaxed), pthread_self()) != 0
  }

  /// Runs turns on the calling thread until `stop()`. A stopped loop stays stopped.
  public func run() {
    let (claimed, _) = loopThread.compareExchange(
      expected: 0, desired: pthread_self(), ordering: .acquiringAndReleasing)
    precondition(claimed, "EventLoop.run() is already running on another thread")
    defer { loopThread.store(0, ordering: .releasing) }

    now = .now
    var stopping = inbox.withLock { $0.stopRequested }
    while !stopping {
      let count = waitForEvents()
      now = .now
      var woken = false
      for index in 0..<count {
        let event = events[index]
        let fd = Int32(truncatingIfNeeded: event.data.u64)
        let generation = UInt32(truncatingIfNeeded: event.data.u64 >> 32)
        if generation == Self.wakeGeneration {
          woken = true
        } else {
          dispatch(event.events, fd: fd, generation: generation)
        }
      }
      if woken {
        stopping = runTasks()
      }
      runDueTimers()
      runAfterTurnWork()
    }
    releaseWorkThatCannotRun()
  }

  /// Drops the timers, tasks, end-of-turn work and handlers a stopped loop holds. None of them
  /// can run again, and each may hold something that holds the loop (a connection holds it to
  /// schedule its timers): kept, such a cycle would outlive every other reference to the loop.
  private func releaseWorkThatCannotRun() {
    var tasks: [@Sendable () -> Void] = []
    inbox.withLock { inbox in
      inbox.hasFinished = true
      swap(&inbox.tasks, &tasks)
    }
    // Swapped out before anything is released: a deinit that runs as the work goes may call
    // `cancel` or `deregister`, and finds the loop's state consistent and empty.
    var pendingTimers = TimerQueue()
    swap(&timers, &pendingTimers)
    var pendingWork: [() -> Void] = []
    swap(&afterTurnWork, &pendingWork)
    var handlers: [Registration?] = []
    swap(&registrations, &handlers)
    withExtendedLifetime((tasks, pendingTimers, pendingWork, handlers)) {}
  }

  /// Makes `run()` return after its current turn. Callable from any thread.
  public func stop() {
    inbox.withLock { $0.stopRequested = true }
    wake()
  }

  /// Runs `work` on the loop thread during its next turn, in submission order. Once the loop
  /// has stopped, `work` is released without running.
  public func execute(_ work: @escaping @Sendable () -> Void) {
    let wasEmpty = inbox.withLock { inbox in
      // Released by the caller, outside the lock, when this returns.
      guard !inbox.hasFinished else { return false }
      inbox.tasks.append(work)
      return inbox.tasks.count == 1
    }
    // A non-empty queue already has a wake-up on its way.
    if wasEmpty {
      wake()
    }
  }

  /// Whether work queued with `execute` waits for the next turn: what a
  /// connection reading a burst checks to see if it holds others up.
  public var hasQueuedTasks: Bool {
    inbox.withLock { !$0.tasks.isEmpty }
  }

  /// Starts reporting readiness of `fd` to `handler`, which the loop retains until
  /// `deregister(fd:)`. Deregister before closing the descriptor.
  public func register(fd: Int32, interest: Interest, handler: any EventLoopHandler)
    throws(IOError)
  {
    preconditionOnLoopThread()
    precondition(fd >= 0, "cannot register negative descriptor \(fd)")
    let generation = nextGeneration
    nextGeneration = nextGeneration == .max ? 1 : nextGeneration + 1
    try Syscall.epollControl(
      epollFD: epollFD, operation: EPOLL_CTL_ADD, fd: fd, events: Self.epollEvents(for: interest),
      data: Self.eventData(fd: fd, generation: generation))
    let index = Int(fd)
    if index >= registrations.count {
      registrations.append(contentsOf: repeatElement(nil, count: index + 1 - registrations.count))
    }
    registrations[index] = Registration(
      handler: handler, interest: interest, generation: generation)
  }

  /// Changes what `fd` is watched for. Throws `ENOENT` from `epoll_ctl` for an unregistered fd.
  public func setInterest(fd: Int32, _ interest: Interest) throws(IOError) {
    preconditionOnLoopThread()
    guard let registration = registration(fd: fd) else {
      throw IOError(call: "epoll_ctl", errno: ENOENT)
    }
    guard registration.interest != interest else { return }
    try Syscall.epollControl(
      epollFD: epollFD, operation: EPOLL_CTL_MOD, fd: fd, events: Self.epollEvents(for: interest),
      data: Self.eventData(fd: fd, generation: registration.generation))
    registrations[Int(fd)]?.interest = interest
  }

  /// Stops watching `fd` and releases its handler; events of this turn still pending for it are
  /// dropped. Safe inside any handler callback, including the descriptor's own.
  public func deregister(fd: Int32) {
    preconditionOnLoopThread()
    guard registration(fd: fd) != nil else { return }
    registrations[Int(fd)] = nil
    // Ignored: if the descriptor was already closed, the kernel has dropped it from the set.
    try? Syscall.epollControl(
      epollFD: epollFD, operation: EPOLL_CTL_DEL, fd: fd, events: 0, data: 0)
  }

  /// Runs `work` once `delay` after the start of this turn, on the monotonic clock. Timers fire
  /// in deadline order; equal deadlines fire in scheduling order.
  @discardableResult
  public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> TimerHandle {
    preconditionOnLoopThread()
    return timers.schedule(at: now + delay, work)
  }

  /// Prevents a timer from firing; a no-op if it already fired or was cancelled.
  public func cancel(_ timer: TimerHandle) {
    preconditionOnLoopThread()
    timers.cancel(timer)
  }

  /// Runs `work` once at the end of this turn, after its I/O events, tasks and timers; called
  /// from an `afterTurn` callback, at the end of the next turn.
  public func afterTurn(_ work: @escaping () -> Void) {
    preconditionOnLoopThread()
    afterTurnWork.append(work)
  }

  private func waitForEvents() -> Int {
    let timeout: Int32
    if !afterTurnWork.isEmpty {
      timeout = 0
    } else if let deadline = timers.nextDeadline() {
      timeout = Self.milliseconds(until: deadline)
    } else {
      timeout = -1
    }
    do {
      return try Syscall.epollWait(epollFD: epollFD, events: events, timeoutMilliseconds: timeout)
    } catch {
      // Only EBADF, EFAULT or EINVAL remain, and each means the loop's own state is corrupt.
      fatalError("\(error)")
    }
  }

  private func dispatch(_ flags: UInt32, fd: Int32, generation: UInt32) {
    guard let registration = registration(fd: fd, generation: generation) else { return }
    if flags & EPOLLIN.rawValue != 0 && registration.interest.contains(.readable) {
      registration.handler.readable()
    }
    // Each later callback looks the registration up again: the previous one may have
    // deregistered the descriptor or changed its interest.
    let hungUp = EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue
    if flags & hungUp != 0 {
      self.registration(fd: fd, generation: generation)?.handler.hangup()
    } else if flags & EPOLLOUT.rawValue != 0,
      let current = self.registration(fd: fd, generation: generation),
      current.interest.contains(.writable)
    {
      current.handler.writable()
    }
  }

  /// Returns whether `stop()` was requested.
  private func runTasks() -> Bool {
    // Drain the eventfd before taking the queue: a task queued after the swap writes it again,
    // and that write must survive to wake the next turn.
    var counter: UInt64 = 0
    _ = try? withUnsafeMutableBytes(of: &counter) { bytes throws(IOError) in
      try Syscall.read(fd: wakeFD, into: bytes)
    }
    let stopping = inbox.withLock { inbox in
      swap(&inbox.tasks, &runningTasks)
      return inbox.stopRequested
    }
    for task in runningTasks {
      task()
    }
    runningTasks.removeAll(keepingCapacity: true)
    return stopping
  }

  private func runDueTimers() {
    timers.popDue(at: now, into: &dueTimers)
    for timer in dueTimers {
      // Taken one at a time: an earlier timer may cancel a later one that is also due.
      if let work = timers.take(timer) {
        work()
      }
    }
    dueTimers.removeAll(keepingCapacity: true)
  }

  private func runAfterTurnWork() {
    runningAfterTurn = true
    defer { runningAfterTurn = false }
    swap(&afterTurnWork, &runningAfterTurnWork)
    for work in runningAfterTurnWork {
      work()
    }
    runningAfterTurnWork.removeAll(keepingCapacity: true)
  }

  /// Runs the end-of-turn work queued so far at once when more than
  /// `limit` callbacks wait, for a task in the middle of a long batch: a
  /// change that reaches thousands of connections writes each of them while
  /// what the change touched of it is still in the cache, rather than all
  /// of them after the batch, by when the first ones' state is evicted.
  /// Call from a task, at a point where the queued work may run.
  public func runAfterTurnWork(ifMoreThan limit: Int) {
    preconditionOnLoopThread()
    guard afterTurnWork.count > limit, !runningAfterTurn else { return }
    runAfterTurnWork()
  }

  private func wake() {
    var one: UInt64 = 1
    // Ignored: the counter cannot realistically saturate, and the only other failure is a
    // descriptor already closed by deinit, when nobody is left to wake.
    _ = try? withUnsafeBytes(of: &one) { bytes throws(IOError) in
      try Syscall.write(fd: wakeFD, buffer: bytes)
    }
  }

  private func registration(fd: Int32, generation: UInt32? = nil) -> Registration? {
    let index = Int(fd)
    guard index >= 0, index < registrations.count, let registration = registrations[index]
    else { return nil }
    if let generation, registration.generation != generation { return nil }
    return registration
  }

  private func preconditionOnLoopThread(_ function: StaticString = #function) {
    let owner = loopThread.load(ordering: .relaxed)
    precondition(
      owner == 0 || pthread_equal(owner, pthread_self()) != 0,
      "EventLoop.\(function) called off the loop thread")
  }

  private static func epollEvents(for interest: Interest) -> UInt32 {
    var events: UInt32 = 0
    if interest.contains(.readable) {
      // RDHUP rides along with reading: a peer's half-close is news about the input stream.
      events |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    }
    if interest.contains(.writable) {
      events |= EPOLLOUT.rawValue
    }
    return events
  }

  private static func eventData(fd: Int32, generation: UInt32) -> UInt64 {
    UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
  }

  /// Rounded up, so the loop does not wake just before a timer is due and spin.
  private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let remaining = deadline - .now
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    guard seconds < Int64(Int32.max / 1000) else { return .max }
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(milliseconds)
  }
}
