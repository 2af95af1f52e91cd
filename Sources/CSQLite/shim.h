#ifndef GAUGED_CSQLITE_SHIM_H
#define GAUGED_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift
   cannot import. It tells SQLite to copy a bound value before the bind call
   returns, so Swift buffers need not outlive the call. */
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

#endif
