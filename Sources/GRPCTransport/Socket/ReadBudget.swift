/// How much one connection reads from its socket per readiness event.
///
/// A connection reads in full buffers, a few per event, while its loop has
/// nothing else waiting: bulk input goes through in few turns. Once what it
/// read has queued work for others on the loop (a producer's values waiting
/// to reach the loop's subscribers), it stops for this turn, and reads one
/// small chunk per event until a read leaves the loop's queue empty.
///
/// A producer at full speed would otherwise hold its loop for a quarter of
/// a megabyte of input per turn (milliseconds of work), and every
/// subscriber there would wait that long for each delivery, for values that
/// are mostly coalesced away. The producer is slowed by its loop's other
/// work, through TCP and HTTP/2 flow control, never by any one subscriber.
/// 4 KiB (about 150 values) rather than 8: side by side at 1,000
/// subscribers and a producer at full speed, 1.04-1.27M delivered events/s
/// against 0.95-1.08M, the producer publishing 0.37-0.47M values/s against
/// 0.63-0.69M.
///
/// It also says when the connection's peers should be held to small
/// receive windows (`limitsBacklog`, see `limitInboundBacklog`): from the
/// first read that yields with input left in the socket, until
/// `calmReadsBeforeFullWindows` reads in a row have not, so that a loop
/// flipping between busy and idle does not flip its peers' windows with
/// it. Kept to a few bytes: every connection, idle ones included, holds one.
struct ReadBudget {
  /// Reads per readiness event while the loop has nothing else waiting.
  static let fullReadsPerEvent = 4
  /// The read size while the loop has other work waiting.
  static let yieldingReadBytes = 4 << 10
  static let calmReadsBeforeFullWindows = 16

  private(set) var yielding = false
  private(set) var limitsBacklog = false
  private var readsThisEvent: UInt8 = 0
  private var calmReads: UInt8 = 0

  /// A readiness event begins.
  mutating func eventBegins() {
    readsThisEvent = 0
  }

  /// How many bytes the next read may take from a buffer of `bufferBytes`.
  func nextReadBytes(bufferBytes: Int) -> Int {
    yielding ? min(Self.yieldingReadBytes, bufferBytes) : bufferBytes
  }

  /// A read took `count` bytes (of `asked`), which have been processed;
  /// `othersWaiting` says whether the loop now has queued work. Returns
  /// whether to read again within this event.
  mutating func read(_ count: Int, asked: Int, othersWaiting: Bool) -> Bool {
    readsThisEvent &+= 1
    yielding = othersWaiting
    // Input left in the socket while others wait is a backlog forming; a
    // read that emptied the socket (a peer far away, or a slow one) is not,
    // and its windows stay as they are.
    if othersWaiting, count == asked {
      limitsBacklog = true
      calmReads = 0
    } else if limitsBacklog {
      calmReads += 1
      if calmReads >= Self.calmReadsBeforeFullWindows { limitsBacklog = false }
    }
    if othersWaiting { return false }
    return count == asked && readsThisEvent < Self.fullReadsPerEvent
  }
}
