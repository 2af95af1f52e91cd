#ifndef GAUGED_CPROTOBUFC_SHIM_H
#define GAUGED_CPROTOBUFC_SHIM_H
#include <protobuf-c/protobuf-c.h>
#endif
