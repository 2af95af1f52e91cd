#ifndef GAUGED_CNGHTTP2_SHIM_H
#define GAUGED_CNGHTTP2_SHIM_H
#include <nghttp2/nghttp2.h>

/* Flood limits that arrived in nghttp2 after 1.52 upstream (stream reset
 * rate limit in 1.57, max continuations in 1.61) and that distributions
 * backport without changing the version number. They are found by symbol:
 * the declarations below are weak, so each resolves to NULL when the linked
 * libnghttp2 lacks it, and the helpers report whether they took effect. The
 * prototypes repeat nghttp2.h's where it has them, so a mismatch fails the
 * build. */
extern void nghttp2_option_set_max_settings(nghttp2_option *option, size_t val)
    __attribute__((weak));
extern void nghttp2_option_set_max_outbound_ack(nghttp2_option *option, size_t val)
    __attribute__((weak));
extern void nghttp2_option_set_max_continuations(nghttp2_option *option, size_t val)
    __attribute__((weak));
extern void nghttp2_option_set_stream_reset_rate_limit(nghttp2_option *option,
                                                       uint64_t burst, uint64_t rate)
    __attribute__((weak));

static inline int gauged_nghttp2_set_max_settings(nghttp2_option *option, size_t count) {
  if (!nghttp2_option_set_max_settings) return 0;
  nghttp2_option_set_max_settings(option, count);
  return 1;
}

static inline int gauged_nghttp2_set_max_outbound_ack(nghttp2_option *option, size_t count) {
  if (!nghttp2_option_set_max_outbound_ack) return 0;
  nghttp2_option_set_max_outbound_ack(option, count);
  return 1;
}

static inline int gauged_nghttp2_set_max_continuations(nghttp2_option *option, size_t count) {
  if (!nghttp2_option_set_max_continuations) return 0;
  nghttp2_option_set_max_continuations(option, count);
  return 1;
}

static inline int gauged_nghttp2_set_stream_reset_rate_limit(nghttp2_option *option,
                                                             uint64_t burst, uint64_t rate) {
  if (!nghttp2_option_set_stream_reset_rate_limit) return 0;
  nghttp2_option_set_stream_reset_rate_limit(option, burst, rate);
  return 1;
}

/* A session allocator that lets the sessions of one event loop share one
 * outbound frame buffer, and keeps the stream map on a page of its own.
 *
 * libnghttp2 1.52 gives each session a 16,394-byte frame buffer (one frame
 * header, a pad byte and the largest payload) at creation, and a 4,096-byte
 * stream map. The frame buffer only holds the frame being serialized inside
 * nghttp2_session_mem_send, and the caller copies what mem_send returns
 * before any other session on the loop sends, so one buffer per loop serves
 * them all. The first allocation of exactly that size made while the session
 * is being created gets the loop's buffer; its free is skipped.
 *
 * The stream map's table is all zero while no stream is open (with closed
 * streams not kept); on its own page, that page can go back to the kernel
 * (madvise) and reads as zeros afterwards. An idle connection then holds
 * neither buffer. Both rely only on sizes: if a later libnghttp2 allocates
 * differently, nothing is shared or trimmed and each session allocates as
 * usual. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
  GAUGED_NGHTTP2_FRAME_BUFFER_SIZE = 9 + 1 + 16384,
  GAUGED_NGHTTP2_MAP_TABLE_SIZE = 4096,
};

/* Small blocks the sessions of one event loop freed, kept for the next
 * allocation of a fitting size. A unary call makes libnghttp2 allocate
 * eight blocks (its stream, the outbound items, header copies) and free
 * them when the stream closes; with hundreds of calls in flight they
 * overflow glibc's per-thread cache of seven blocks per size, and each
 * then costs a trip through its bins, a tenth of the call.
 *
 * Blocks are sorted into classes by their usable size (malloc_usable_size,
 * so a block is reused only where it fits whatever the allocator rounded it
 * to) and chained through their first word. At most `limit_bytes` are kept;
 * `gauged_nghttp2_block_cache_release` gives them all back, which the loop
 * does when it is idle so that a quiet server holds none. Used by one
 * loop's thread only, like the sessions that share it. */
enum {
  GAUGED_NGHTTP2_BLOCK_CLASSES = 32,
  GAUGED_NGHTTP2_SMALLEST_BLOCK = 24,
  GAUGED_NGHTTP2_BLOCK_STEP = 16,
  GAUGED_NGHTTP2_LARGEST_BLOCK =
      GAUGED_NGHTTP2_SMALLEST_BLOCK + GAUGED_NGHTTP2_BLOCK_STEP * (GAUGED_NGHTTP2_BLOCK_CLASSES - 1),
};

typedef struct gauged_nghttp2_block_cache {
  void *heads[GAUGED_NGHTTP2_BLOCK_CLASSES];
  /* The bytes kept, counted at each class's nominal size. */
  size_t cached_bytes;
  size_t limit_bytes;
} gauged_nghttp2_block_cache;

static inline size_t gauged_nghttp2_block_class_size(size_t block_class) {
  return GAUGED_NGHTTP2_SMALLEST_BLOCK + GAUGED_NGHTTP2_BLOCK_STEP * block_class;
}

/* Takes a block of at least `size` bytes from the cache (NULL: none kept). */
static inline void *gauged_nghttp2_block_cache_take(gauged_nghttp2_block_cache *cache,
                                                    size_t size) {
  if (size > GAUGED_NGHTTP2_LARGEST_BLOCK) return NULL;
  size_t block_class = size <= GAUGED_NGHTTP2_SMALLEST_BLOCK
                           ? 0
                           : (size - GAUGED_NGHTTP2_SMALLEST_BLOCK + GAUGED_NGHTTP2_BLOCK_STEP - 1) /
                                 GAUGED_NGHTTP2_BLOCK_STEP;
  void *block = cache->heads[block_class];
  if (block == NULL) return NULL;
  cache->heads[block_class] = *(void **)block;
  cache->cached_bytes -= gauged_nghttp2_block_class_size(block_class);
  return block;
}

/* Keeps `block` if it is small and the cache has room; 0: the caller frees it. */
static inline int gauged_nghttp2_block_cache_keep(gauged_nghttp2_block_cache *cache, void *block) {
  size_t usable = malloc_usable_size(block);
  if (usable < GAUGED_NGHTTP2_SMALLEST_BLOCK) return 0;
  size_t block_class = (usable - GAUGED_NGHTTP2_SMALLEST_BLOCK) / GAUGED_NGHTTP2_BLOCK_STEP;
  if (block_class >= GAUGED_NGHTTP2_BLOCK_CLASSES) return 0;
  size_t nominal = gauged_nghttp2_block_class_size(block_class);
  if (cache->cached_bytes + nominal > cache->limit_bytes) return 0;
  *(void **)block = cache->heads[block_class];
  cache->heads[block_class] = block;
  cache->cached_bytes += nominal;
  return 1;
}

/* Frees every block kept. */
static inline void gauged_nghttp2_block_cache_release(gauged_nghttp2_block_cache *cache) {
  for (size_t block_class = 0; block_class < GAUGED_NGHTTP2_BLOCK_CLASSES; block_class++) {
    void *block = cache->heads[block_class];
    while (block != NULL) {
      void *next = *(void **)block;
      free(block);
      block = next;
    }
    cache->heads[block_class] = NULL;
  }
  cache->cached_bytes = 0;
}

typedef struct gauged_nghttp2_allocator {
  nghttp2_mem mem;
  /* The loop's frame buffer, owned by the loop (NULL: none to share). */
  void *shared_frame_buffer;
  /* Set while the session is being created. */
  int creating;
  /* The shared buffer was handed to this session and is still its own. */
  int holds_shared_buffer;
  /* The page-aligned stream map table, while the session uses it. */
  void *map_table;
  /* The loop's cache of small blocks (NULL: none). */
  gauged_nghttp2_block_cache *block_cache;
} gauged_nghttp2_allocator;

static inline void *gauged_nghttp2_malloc(size_t size, void *user_data) {
  gauged_nghttp2_allocator *allocator = (gauged_nghttp2_allocator *)user_data;
  if (allocator->creating && allocator->shared_frame_buffer && !allocator->holds_shared_buffer &&
      size == GAUGED_NGHTTP2_FRAME_BUFFER_SIZE) {
    allocator->holds_shared_buffer = 1;
    return allocator->shared_frame_buffer;
  }
  if (allocator->block_cache != NULL) {
    void *block = gauged_nghttp2_block_cache_take(allocator->block_cache, size);
    if (block != NULL) return block;
  }
  return malloc(size);
}

static inline void gauged_nghttp2_free(void *pointer, void *user_data) {
  gauged_nghttp2_allocator *allocator = (gauged_nghttp2_allocator *)user_data;
  if (pointer == NULL) return;
  if (allocator->holds_shared_buffer && pointer == allocator->shared_frame_buffer) {
    allocator->holds_shared_buffer = 0;
    return;
  }
  if (pointer == allocator->map_table) {
    allocator->map_table = NULL;
  } else if (allocator->block_cache != NULL &&
             gauged_nghttp2_block_cache_keep(allocator->block_cache, pointer)) {
    return;
  }
  free(pointer);
}

static inline void *gauged_nghttp2_calloc(size_t count, size_t size, void *user_data) {
  gauged_nghttp2_allocator *allocator = (gauged_nghttp2_allocator *)user_data;
  if (allocator->creating && allocator->map_table == NULL && size != 0 &&
      count == GAUGED_NGHTTP2_MAP_TABLE_SIZE / size &&
      count * size == GAUGED_NGHTTP2_MAP_TABLE_SIZE) {
    void *table = NULL;
    if (posix_memalign(&table, GAUGED_NGHTTP2_MAP_TABLE_SIZE, GAUGED_NGHTTP2_MAP_TABLE_SIZE) != 0)
      return NULL;
    memset(table, 0, GAUGED_NGHTTP2_MAP_TABLE_SIZE);
    allocator->map_table = table;
    return table;
  }
  return calloc(count, size);
}

static inline void *gauged_nghttp2_realloc(void *pointer, size_t size, void *user_data) {
  gauged_nghttp2_allocator *allocator = (gauged_nghttp2_allocator *)user_data;
  if (pointer == NULL) return gauged_nghttp2_malloc(size, user_data);
  size_t kept = 0;
  if (allocator->holds_shared_buffer && pointer == allocator->shared_frame_buffer)
    kept = GAUGED_NGHTTP2_FRAME_BUFFER_SIZE;
  else if (pointer == allocator->map_table)
    kept = GAUGED_NGHTTP2_MAP_TABLE_SIZE;
  if (kept == 0) return realloc(pointer, size);
  /* Leaving the shared buffer or the map's page: a private copy. */
  void *moved = malloc(size);
  if (moved == NULL) return NULL;
  memcpy(moved, pointer, size < kept ? size : kept);
  gauged_nghttp2_free(pointer, user_data);
  return moved;
}

/* Creates a session whose allocations go through `allocator`, which must
 * outlive it, as must `block_cache`; `shared_frame_buffer` and
 * `block_cache` may be NULL. */
static inline int gauged_nghttp2_session_new(nghttp2_session **session, int server,
                                             const nghttp2_session_callbacks *callbacks,
                                             const nghttp2_option *option,
                                             gauged_nghttp2_allocator *allocator,
                                             void *shared_frame_buffer,
                                             gauged_nghttp2_block_cache *block_cache) {
  memset(allocator, 0, sizeof(*allocator));
  allocator->mem.mem_user_data = allocator;
  allocator->mem.malloc = gauged_nghttp2_malloc;
  allocator->mem.free = gauged_nghttp2_free;
  allocator->mem.calloc = gauged_nghttp2_calloc;
  allocator->mem.realloc = gauged_nghttp2_realloc;
  allocator->shared_frame_buffer = shared_frame_buffer;
  allocator->block_cache = block_cache;
  allocator->creating = 1;
  int result = server ? nghttp2_session_server_new3(session, callbacks, NULL, option, &allocator->mem)
                      : nghttp2_session_client_new3(session, callbacks, NULL, option, &allocator->mem);
  allocator->creating = 0;
  return result;
}

/* Whether the session was handed the loop's frame buffer. */
static inline int gauged_nghttp2_shares_frame_buffer(const gauged_nghttp2_allocator *allocator) {
  return allocator->holds_shared_buffer;
}

/* Gives the stream map's page back to the kernel when it holds no stream;
 * returns 1 when it did. */
static inline int gauged_nghttp2_trim_stream_map(gauged_nghttp2_allocator *allocator) {
  const unsigned long *words = (const unsigned long *)allocator->map_table;
  if (words == NULL) return 0;
  for (size_t index = 0; index < GAUGED_NGHTTP2_MAP_TABLE_SIZE / sizeof(unsigned long); index++)
    if (words[index] != 0) return 0;
  return madvise(allocator->map_table, GAUGED_NGHTTP2_MAP_TABLE_SIZE, MADV_DONTNEED) == 0;
}

#endif
