import CZlib

/// Decompresses gzip messages, never producing more than a limit: a small
/// message that inflates to gigabytes (a zip bomb) is refused once its
/// output passes the limit, having allocated no more than that.
///
/// Owns one zlib inflate stream, reset between messages. Used on one loop.
package final class GzipInflater {
  package enum Failure: Error, Equatable {
    /// The output would pass the limit.
    case tooLarge
    /// Not gzip, truncated, or followed by stray bytes.
    case corrupt(String)
  }

  private let stream: UnsafeMutablePointer<z_stream>
  private let scratch: UnsafeMutableBufferPointer<UInt8>
  private var ready: Bool

  package init() {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    scratch = .allocate(capacity: 32 << 10)
    // 16 + 15: a gzip wrapper around a deflate stream with a 32 KiB window.
    ready =
      inflateInit2_(stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
      == Z_OK
  }

  deinit {
    if ready { inflateEnd(stream) }
    stream.deinitialize(count: 1)
    stream.deallocate()
    scratch.deallocate()
  }

  package func inflate(_ input: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
    guard ready, inflateReset(stream) == Z_OK else {
      return .failure(.corrupt("zlib could not start an inflate stream"))
    }
    var output: [UInt8] = []
    return input.withUnsafeBufferPointer { source -> Result<[UInt8], Failure> in
      stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.pointee.avail_in = UInt32(source.count)
      defer {
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
      }
      while true {
        stream.pointee.next_out = scratch.baseAddress
        stream.pointee.avail_out = UInt32(scratch.count)
        let result = CZlib.inflate(stream, Z_NO_FLUSH)
        let produced = scratch.count - Int(stream.pointee.avail_out)
        if output.count + produced > limit { return .failure(.tooLarge) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<produced]))
        switch result {
        case Z_STREAM_END:
          if stream.pointee.avail_in != 0 {
            return .failure(.corrupt("\(stream.pointee.avail_in) bytes follow the gzip data"))
          }
          return .success(output)
        case Z_OK:
          continue
        case Z_BUF_ERROR where produced > 0:
          continue
        case Z_BUF_ERROR:
          return .failure(.corrupt("the gzip data ends early"))
        default:
          let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
          return .failure(.corrupt(reason))
        }
      }
    }
  }

  /// `inflate` for a gRPC message, failing with the status its call ends
  /// with: RESOURCE_EXHAUSTED past the receive limit, INTERNAL for bytes
  /// that are not gzip. Server and client apply the same rule.
  package func inflateMessage(_ input: [UInt8], limit: Int) -> Result<[UInt8], GRPCStatus> {
    inflate(input, limit: limit).mapError { failure in
      switch failure {
      case .tooLarge:
        GRPCStatus(.resourceExhausted, "received message inflates past the limit of \(limit) bytes")
      case .corrupt(let reason):
        GRPCStatus(.internal, "could not inflate the gzip message: \(reason)")
      }
    }
  }
}
