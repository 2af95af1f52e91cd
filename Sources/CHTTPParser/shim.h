#ifndef GAUGED_CHTTPPARSER_SHIM_H
#define GAUGED_CHTTPPARSER_SHIM_H
// libhttp-parser (Debian libhttp-parser-dev): the HTTP/1.1 request parser.
#include <http_parser.h>

// The parser's state lives in bit-fields; these read them without relying
// on how Swift imports bit-fields.
static inline unsigned gauged_http_errno(const http_parser *parser) {
  return parser->http_errno;
}
static inline unsigned gauged_http_method(const http_parser *parser) {
  return parser->method;
}
static inline unsigned gauged_http_is_chunked(const http_parser *parser) {
  return (parser->flags & F_CHUNKED) != 0;
}
static inline int gauged_http_upgrade(const http_parser *parser) {
  return parser->upgrade;
}
#endif
