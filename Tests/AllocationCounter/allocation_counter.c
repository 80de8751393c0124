// Counts a process's heap allocations, for the allocation budget (AllocationBudgetTests).
//
// Loaded with LD_PRELOAD into a server the test starts. Every call that can allocate (malloc,
// calloc, realloc and the aligned kinds) adds one to a counter kept in a shared file, named by
// TESSERA_ALLOCATION_COUNTER, which the test reads while the server runs. The calls go on to
// glibc's own allocator, so the process behaves as without it. Counts, not times: the same
// requests make the same count on a busy machine as on an idle one.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// The counter, in the shared file's first 8 bytes; NULL until the constructor maps it (the
// dynamic loader allocates before then, uncounted).
static _Atomic uint64_t *counter;

__attribute__((constructor)) static void map_counter(void) {
    const char *path = getenv("TESSERA_ALLOCATION_COUNTER");
    if (path == NULL) return;
    int descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor < 0) return;
    if (ftruncate(descriptor, sizeof(uint64_t)) == 0) {
        void *mapped = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
        if (mapped != MAP_FAILED) counter = mapped;
    }
    close(descriptor);
}

static inline void count(void) {
    _Atomic uint64_t *shared = counter;
    if (shared != NULL) atomic_fetch_add_explicit(shared, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
