#ifndef GAUGED_CZLIB_SHIM_H
#define GAUGED_CZLIB_SHIM_H
#include <zlib.h>
#endif
