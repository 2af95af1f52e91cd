import GaugeIO
import Glibc

/// How long a process's threads were ready to run but waited for a core,
/// from `/proc/<pid>/task/<tid>/schedstat`. On cores shared by the server
/// and its load, this is the part of a latency that neither spent working:
/// a thread woken by a packet that is still behind another thread.
struct RunQueueWait: Equatable {
  /// One thread's counters: time on a core, time runnable but waiting,
  /// and how many times it was given a core.
  struct Thread: Equatable {
    var runningNanos: UInt64
    var waitingNanos: UInt64
    var timeslices: UInt64
  }

  /// By thread id, so a thread that ended or started inside a window is
  /// left out instead of making the sum jump.
  var threads: [Int32: Thread]

  /// Waiting time summed over the threads present at both ends, as a
  /// percentage of `wallNanos` (above 100 when several threads wait at
  /// once), and the mean wait per timeslice in microseconds.
  func since(_ earlier: RunQueueWait, wallNanos: UInt64) -> (percent: Double, meanMicros: Double)? {
    guard wallNanos > 0 else { return nil }
    var waited: UInt64 = 0
    var slices: UInt64 = 0
    for (tid, now) in threads {
      guard let before = earlier.threads[tid], now.waitingNanos >= before.waitingNanos,
        now.timeslices >= before.timeslices
      else { continue }
      waited += now.waitingNanos - before.waitingNanos
      slices += now.timeslices - before.timeslices
    }
    let mean = slices > 0 ? Double(waited) / Double(slices) / 1000 : 0
    return (Double(waited) / Double(wallNanos) * 100, mean)
  }

  /// Nil when the kernel keeps no scheduler statistics (every counter zero)
  /// or the process is gone.
  static func sample(process: String) -> RunQueueWait? {
    guard let names = Syscall.directoryEntries(at: "/proc/\(process)/task") else { return nil }
    var threads: [Int32: Thread] = [:]
    for name in names {
      guard let tid = Int32(name),
        let text = ProcessFiles.read("/proc/\(process)/task/\(name)/schedstat"),
        let thread = parse(schedstat: text)
      else { continue }
      threads[tid] = thread
    }
    guard threads.values.contains(where: { $0.runningNanos > 0 }) else { return nil }
    return RunQueueWait(threads: threads)
  }

  /// `schedstat` is three numbers: nanoseconds on a core, nanoseconds
  /// waiting on a run queue, timeslices.
  static func parse(schedstat text: String) -> Thread? {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 3, let running = UInt64(fields[0]), let waiting = UInt64(fields[1]),
      let slices = UInt64(fields[2])
    else { return nil }
    return Thread(runningNanos: running, waitingNanos: waiting, timeslices: slices)
  }
}
