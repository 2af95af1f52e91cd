import CZlib

/// Compresses response messages with gzip. Owns one zlib deflate stream,
/// reset between messages. Used on one loop.
package final class GzipDeflater {
  private let stream: UnsafeMutablePointer<z_stream>
  private let scratch: UnsafeMutableBufferPointer<UInt8>
  private var ready: Bool

  package init() {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    scratch = .allocate(capacity: 32 << 10)
    ready =
      deflateInit2_(
        stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
        zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
  }

  deinit {
    if ready { deflateEnd(stream) }
    stream.deinitialize(count: 1)
    stream.deallocate()
    scratch.deallocate()
  }

  /// nil only when zlib cannot work (out of memory): send the message
  /// uncompressed instead.
  package func deflate(_ input: [UInt8]) -> [UInt8]? {
    guard ready, deflateReset(stream) == Z_OK else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(Int(deflateBound(stream, UInt(input.count))))
    return input.withUnsafeBufferPointer { source -> [UInt8]? in
      stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.pointee.avail_in = UInt32(source.count)
      defer {
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
      }
      while true {
        stream.pointee.next_out = scratch.baseAddress
        stream.pointee.avail_out = UInt32(scratch.count)
        let result = CZlib.deflate(stream, Z_FINISH)
        let produced = scratch.count - Int(stream.pointee.avail_out)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<produced]))
        switch result {
        case Z_STREAM_END: return output
        case Z_OK: continue
        case Z_BUF_ERROR where produced > 0: continue
        default: return nil
        }
      }
    }
  }
}
