/// Follows a client's frames by their headers, ahead of the server session,
/// for the RFC 9113 rules libnghttp2 cannot apply there: it keeps no closed
/// streams (`nghttp2_option_set_no_closed_streams`), so DATA and HEADERS on
/// one are dropped unseen, and it skips PRIORITY frames unread once
/// SETTINGS_NO_RFC7540_PRIORITIES is announced.
///
/// What a client may send on a stream depends only on what it sent there
/// before, so its own frames tell which of its streams it opened and which
/// it closed (END_STREAM or RST_STREAM), whatever the server did. That is
/// kept for the 64 most recent stream ids below the highest one opened; a
/// frame on an older stream is left to libnghttp2, as before.
struct InboundFrameScanner {
  enum Violation: Equatable {
    /// PRIORITY on stream 0: a connection error (section 6.3).
    case priorityWithoutStream
    /// PRIORITY making a stream depend on itself (section 5.3.1).
    case dependsOnItself(Int32)
    /// DATA or HEADERS on a stream id the client skipped (section 5.1.1).
    case streamNeverOpened(Int32)
    /// DATA or HEADERS after the client's own END_STREAM or RST_STREAM on
    /// the stream (section 5.1). While the session still holds the stream
    /// it judges the frame itself; once the stream is closed it is a
    /// connection error, as a stream error may always become one: there is
    /// no stream left to reset.
    case streamClosedByClient(Int32)

    var reason: String {
      switch self {
      case .priorityWithoutStream: return "PRIORITY frame on stream 0"
      case .dependsOnItself: return "PRIORITY frame making a stream depend on itself"
      case .streamNeverOpened: return "frame on a stream id skipped by the client"
      case .streamClosedByClient: return "frame after END_STREAM or RST_STREAM"
      }
    }
  }

  /// Where one `scan` stopped.
  struct Stop {
    /// Input before this offset is ready for the session: all of it, or up
    /// to the start of the offending frame (or 0 when that frame began in
    /// an earlier buffer).
    var cleanEnd: Int
    /// Where the next `scan` of the same buffer resumes.
    var resume: Int
    var violation: Violation?
  }

  private static let prefaceLength = 24
  private static let headerLength = 9
  private static let window: Int32 = 64

  // Narrow fields, largest first: every server session holds one.
  /// Bit k stands for stream `highestOpened - 2k`: opened by the client.
  private var opened: UInt64 = 0
  /// Bit k: the client has ended or reset that stream.
  private var closedByClient: UInt64 = 0
  /// The first eight bytes of a frame header split across buffers.
  private var partialHeader: UInt64 = 0
  /// The highest client stream id opened with HEADERS (0: none yet).
  private var highestOpened: Int32 = 0
  private var payloadLeft: Int32 = 0
  /// A PRIORITY frame's stream while its dependency field is read.
  private var priorityStream: Int32 = 0
  private var dependency: UInt32 = 0
  private var prefaceLeft = UInt8(Self.prefaceLength)
  private var partialHeaderCount: UInt8 = 0
  private var dependencyBytesLeft: UInt8 = 0

  /// Scans `bytes` from `offset` up to the end or to the first frame that
  /// breaks a rule, whichever comes first.
  mutating func scan(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Stop {
    var index = offset
    let count = bytes.count
    if prefaceLeft > 0 {
      let skipped = min(Int(prefaceLeft), count - index)
      prefaceLeft -= UInt8(skipped)
      index += skipped
    }
    while index < count {
      if payloadLeft > 0 {
        var skipped = min(Int(payloadLeft), count - index)
        if dependencyBytesLeft > 0 {
          let taken = min(skipped, Int(dependencyBytesLeft))
          for byte in bytes[index..<index + taken] { dependency = dependency << 8 | UInt32(byte) }
          dependencyBytesLeft -= UInt8(taken)
          if dependencyBytesLeft == 0, dependency & 0x7fff_ffff == UInt32(priorityStream) {
            // The frame's header and dependency field end here.
            let frameStart = index + taken - Self.headerLength - 4
            skipped = taken
            payloadLeft -= Int32(skipped)
            return Stop(
              cleanEnd: max(frameStart, 0), resume: index + skipped,
              violation: .dependsOnItself(priorityStream))
          }
        }
        payloadLeft -= Int32(skipped)
        index += skipped
        continue
      }
      let frameStart: Int
      let firstEight: UInt64
      let ninth: UInt8
      if partialHeaderCount == 0, count - index >= Self.headerLength {
        firstEight = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        ninth = bytes[index + 8]
        frameStart = index
        index += Self.headerLength
      } else {
        frameStart = index - Int(partialHeaderCount)
        while partialHeaderCount < 8, index < count {
          partialHeader = partialHeader << 8 | UInt64(bytes[index])
          partialHeaderCount += 1
          index += 1
        }
        guard index < count else { break }
        firstEight = partialHeader
        ninth = bytes[index]
        index += 1
        partialHeader = 0
        partialHeaderCount = 0
      }
      if let violation = frameBegins(firstEight, ninth) {
        return Stop(cleanEnd: max(frameStart, 0), resume: index, violation: violation)
      }
    }
    return Stop(cleanEnd: count, resume: count, violation: nil)
  }

  /// Takes in one frame header: its first eight bytes (big-endian) and
  /// its last.
  private mutating func frameBegins(_ firstEight: UInt64, _ ninth: UInt8) -> Violation? {
    let length = Int32(truncatingIfNeeded: firstEight >> 40)
    let type = UInt8(truncatingIfNeeded: firstEight >> 32)
    let flags = UInt8(truncatingIfNeeded: firstEight >> 24)
    let streamID = Int32(truncatingIfNeeded: (firstEight << 8 | UInt64(ninth)) & 0x7fff_ffff)
    payloadLeft = length
    let endStream = flags & 0x1 != 0
    switch type {
    case 0x0:  // DATA
      return dataOrHeaders(on: streamID, endStream: endStream, opening: false)
    case 0x1:  // HEADERS
      return dataOrHeaders(on: streamID, endStream: endStream, opening: true)
    case 0x2:  // PRIORITY; another length is libnghttp2's FRAME_SIZE_ERROR.
      if streamID == 0 { return .priorityWithoutStream }
      if length == 5 {
        priorityStream = streamID
        dependency = 0
        dependencyBytesLeft = 4
      }
    case 0x3:  // RST_STREAM
      if let bit = recentBit(of: streamID), opened & bit != 0 { closedByClient |= bit }
    default:
      break
    }
    return nil
  }

  private mutating func dataOrHeaders(on streamID: Int32, endStream: Bool, opening: Bool)
    -> Violation?
  {
    // Stream 0, server ids and idle streams are libnghttp2's to judge.
    guard streamID & 1 == 1 else { return nil }
    if streamID > highestOpened {
      guard opening else { return nil }
      let shift = (streamID - highestOpened) / 2
      opened = shift < Self.window ? opened << shift | 1 : 1
      closedByClient = shift < Self.window ? closedByClient << shift : 0
      highestOpened = streamID
      if endStream { closedByClient |= 1 }
      return nil
    }
    guard let bit = recentBit(of: streamID) else { return nil }
    if opened & bit == 0 { return .streamNeverOpened(streamID) }
    if closedByClient & bit != 0 { return .streamClosedByClient(streamID) }
    if endStream { closedByClient |= bit }
    return nil
  }

  /// The bit of a client stream id at or below `highestOpened`, if recent.
  private func recentBit(of streamID: Int32) -> UInt64? {
    guard streamID & 1 == 1, streamID <= highestOpened else { return nil }
    let distance = (highestOpened - streamID) / 2
    return distance < Self.window ? UInt64(1) << distance : nil
  }
}
