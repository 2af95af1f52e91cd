#ifndef GAUGED_CNATS_SHIM_H
#define GAUGED_CNATS_SHIM_H
#include <nats/nats.h>
#endif
