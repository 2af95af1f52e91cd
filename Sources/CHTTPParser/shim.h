#ifndef GAUGED_CHTTPPARSER_SHIM_H
#define GAUGED_CHTTPPARSER_SHIM_H
// libhttp-parser (Debian libhttp-parser-dev): the HTTP/1.1 request parser.
#include <http_parser.h>
#endif
