#ifndef GAUGED_CPROTOBUFC_SHIM_H
#define GAUGED_CPROTOBUFC_SHIM_H
#include <protobuf-c/protobuf-c.h>
#include <stdint.h>
#include <stdlib.h>

/* An allocator for protobuf_c_message_unpack that hands out a caller's
 * scratch buffer (on the stack) first and malloc only past its end. An
 * unpacked message lives for one decode, so its pieces need no malloc of
 * their own: a small request unpacks without touching the heap. Freeing
 * skips pointers inside the scratch buffer. The allocator is the first
 * member, so a pointer to the arena is a pointer to it. */
typedef struct gauged_pbc_arena {
  ProtobufCAllocator allocator;
  unsigned char *base;
  size_t size;
  size_t used;
} gauged_pbc_arena;

static void *gauged_pbc_arena_alloc(void *data, size_t size) {
  gauged_pbc_arena *arena = (gauged_pbc_arena *)data;
  size_t rounded = (size + 15) & ~(size_t)15;
  if (rounded >= size && rounded <= arena->size - arena->used) {
    void *pointer = arena->base + arena->used;
    arena->used += rounded;
    return pointer;
  }
  return malloc(size);
}

static void gauged_pbc_arena_free(void *data, void *pointer) {
  gauged_pbc_arena *arena = (gauged_pbc_arena *)data;
  uintptr_t address = (uintptr_t)pointer;
  uintptr_t base = (uintptr_t)arena->base;
  if (address >= base && address < base + arena->size) return;
  free(pointer);
}

/* `base` must be aligned to 16 bytes. */
static inline void gauged_pbc_arena_init(gauged_pbc_arena *arena, void *base, size_t size) {
  arena->allocator.alloc = gauged_pbc_arena_alloc;
  arena->allocator.free = gauged_pbc_arena_free;
  arena->allocator.allocator_data = arena;
  arena->base = (unsigned char *)base;
  arena->size = size;
  arena->used = 0;
}

#endif
