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

#endif
