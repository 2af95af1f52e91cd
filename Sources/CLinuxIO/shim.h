#ifndef GAUGED_CLINUXIO_SHIM_H
#define GAUGED_CLINUXIO_SHIM_H

/* Linux interfaces that Swift's Glibc module leaves out: its module map does
 * not cover <sys/epoll.h> and <sys/eventfd.h>. */
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/* accept4 and pthread_setname_np are GNU extensions, declared by glibc only
 * under _GNU_SOURCE. Defining it here would change how this module parses
 * the headers it shares with Glibc (fd_set's fields, the transparent
 * __SOCKADDR_ARG union), and the two modules' types would no longer merge;
 * so without it, the glibc prototypes are repeated with plain pointers. */
#ifndef __USE_GNU
extern int accept4(int fd, struct sockaddr *address, socklen_t *address_length, int flags);
extern int pthread_setname_np(pthread_t thread, const char *name);
#endif

/* malloc_trim, to give freed heap pages back after a burst. */
#include <malloc.h>

/* gettid is also GNU-only, and Swift cannot call the variadic syscall(2). */
#include <sys/syscall.h>
#include <unistd.h>
static inline int clinuxio_current_thread_id(void) { return (int)syscall(SYS_gettid); }

#endif
