import CLinuxIO
import Glibc

extension Syscall {
  /// The calling thread's id (gettid), as `/proc/PID/task/` names it.
  public static var currentThreadID: Int32 { clinuxio_current_thread_id() }

  /// Sets the calling thread's nice value. Linux schedules threads, and
  /// `setpriority` with a thread id touches that thread alone, so a
  /// background thread can yield to the event loops without slowing them.
  public static func setCurrentThreadNice(_ nice: Int32) throws(IOError) {
    let thread = id_t(currentThreadID)
    guard setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, nice) == 0 else {
      throw IOError(call: "setpriority", errno: errno)
    }
  }
}
