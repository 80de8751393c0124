// What TesseraLoop needs of Linux that Swift's Glibc module does not bring in: epoll, eventfd,
// and naming a thread.
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

// glibc declares it only under _GNU_SOURCE, which a module header cannot set for pthread.h.
extern int pthread_setname_np(pthread_t thread, const char *name);

/// Names the calling thread (at most 15 bytes), for `top -H` and profiles.
static inline void tessera_name_thread(const char *name) {
  pthread_setname_np(pthread_self(), name);
}
