import CNGHTTP2

/// The small blocks that one event loop's nghttp2 sessions freed, kept for
/// their next allocations (`gauged_nghttp2_block_cache` in the `CNGHTTP2`
/// shim): each unary call allocates and frees eight, more at once than
/// glibc's per-thread cache holds. Bounded, and emptied by `release`, which
/// the loop calls when it falls quiet.
///
/// Used on its loop's thread only, as the sessions that share it are; each
/// session keeps a reference, so the cache outlives their last free.
public final class NGHTTP2BlockCache {
  let cache: UnsafeMutablePointer<gauged_nghttp2_block_cache>

  /// The bytes a busy loop keeps: the blocks of a few hundred calls in flight.
  public static let defaultLimitBytes = 256 << 10

  public init(limitBytes: Int = NGHTTP2BlockCache.defaultLimitBytes) {
    cache = .allocate(capacity: 1)
    cache.initialize(to: gauged_nghttp2_block_cache())
    cache.pointee.limit_bytes = limitBytes
  }

  deinit {
    gauged_nghttp2_block_cache_release(cache)
    cache.deallocate()
  }

  /// The bytes kept now, counted at each class's nominal size.
  public var cachedBytes: Int { cache.pointee.cached_bytes }

  /// Frees every kept block.
  public func release() {
    gauged_nghttp2_block_cache_release(cache)
  }
}
