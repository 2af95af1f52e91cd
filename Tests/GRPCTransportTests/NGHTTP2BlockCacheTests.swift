import CNGHTTP2
import GRPCTransportTesting
import Glibc
import Testing

@testable import GRPCTransport
@testable import HTTP2

/// The loop's cache of nghttp2's small blocks: a block is handed out again
/// only for a size it holds, the cache keeps no more than its limit, and
/// `release` leaves it empty.
@Suite struct NGHTTP2BlockCacheTests {
  @Test func aKeptBlockServesSizesItHoldsOnly() throws {
    let cache = NGHTTP2BlockCache()
    let block = try #require(malloc(100))
    let usable = malloc_usable_size(block)
    // The largest class size the block covers; the allocator decides the
    // usable size (glibc rounds 100 up to 104, AddressSanitizer does not).
    let fits = usable - (usable - 24) % 16
    try #require(gauged_nghttp2_block_cache_keep(cache.cache, block) == 1)
    #expect(cache.cachedBytes == fits)
    // Larger than the class: a fresh allocation is needed.
    #expect(gauged_nghttp2_block_cache_take(cache.cache, fits + 1) == nil)
    let again = gauged_nghttp2_block_cache_take(cache.cache, fits)
    // Not taken back, the block is the cache's to free.
    try #require(again == block)
    #expect(cache.cachedBytes == 0)
    #expect(gauged_nghttp2_block_cache_take(cache.cache, fits - 15) == nil)
    free(block)
  }

  @Test func largeBlocksAreNotKept() throws {
    let cache = NGHTTP2BlockCache()
    let block = try #require(malloc(4096))
    #expect(gauged_nghttp2_block_cache_keep(cache.cache, block) == 0)
    free(block)
  }

  @Test func theCacheKeepsNoMoreThanItsLimit() throws {
    let cache = NGHTTP2BlockCache(limitBytes: 1000)
    var kept = 0
    var refused: [UnsafeMutableRawPointer] = []
    for _ in 0..<40 {
      let block = try #require(malloc(64))
      if gauged_nghttp2_block_cache_keep(cache.cache, block) == 1 {
        kept += 1
      } else {
        refused.append(block)
      }
    }
    #expect(kept > 0 && !refused.isEmpty)
    #expect(cache.cachedBytes <= 1000)
    for block in refused { free(block) }
    cache.release()
    #expect(cache.cachedBytes == 0)
    #expect(gauged_nghttp2_block_cache_take(cache.cache, 64) == nil)
  }

  /// Sessions of one loop share the cache through their allocator: calls
  /// on two connections leave blocks in it, take them again, and keep
  /// being answered; the blocks go back when the cache is released.
  @Test func sessionsSharingTheCacheServeCalls() throws {
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration())
    let cache = try #require(group.blockCache)
    let clients = (0..<2).map { _ in
      InMemoryHTTP2Client(
        server: GRPCServerConnection(group: group, scheduler: ManualScheduler(), outputReady: {}),
        readsEagerly: true)
    }
    for round in 0..<3 {
      for client in clients {
        let stream = client.start(
          headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
          body: framed([UInt8(round)]))
        client.exchange()
        #expect(client.responses[stream]?.messages == [[UInt8(round)]])
      }
    }
    #expect(cache.cachedBytes > 0)
    cache.release()
    #expect(cache.cachedBytes == 0)
  }
}
