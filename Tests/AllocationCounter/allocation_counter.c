// Counts a process's heap allocations, thread by thread, for the allocation budget
// (AllocationBudgetTests).
//
// Loaded with LD_PRELOAD into a server the test starts. Every call that can allocate (malloc,
// calloc, realloc and the aligned kinds) adds one to its thread's counter, kept in a shared file
// named by TESSERA_ALLOCATION_COUNTER, which the test reads while the server runs. The calls go
// on to glibc's own allocator, so the process behaves as without it.
//
// Per thread, so that the test can count what the requests it sends cause on the loop that
// serves them, apart from what other threads do meanwhile; and in all, so that it can show that
// nothing else happened. Counts, not times: the same requests make the same count on a busy
// machine as on an idle one.
//
// The file: a header (the number of threads seen), then one slot per thread in the order they
// first allocated: its kernel thread id and its count, 16 bytes each, in native order.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

#define SLOTS 1024

struct slot {
    _Atomic uint64_t count;
    _Atomic int64_t thread;
};

struct counters {
    _Atomic uint64_t threads;
    uint64_t reserved;
    struct slot slots[SLOTS];
};

// NULL until the constructor maps the file (the dynamic loader allocates before then, uncounted).
static struct counters *shared;
// The calling thread's slot; initial-exec, so that reaching it never allocates.
static __thread struct slot *mine __attribute__((tls_model("initial-exec")));

__attribute__((constructor)) static void map_counters(void) {
    const char *path = getenv("TESSERA_ALLOCATION_COUNTER");
    if (path == NULL) return;
    int descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor < 0) return;
    if (ftruncate(descriptor, sizeof(struct counters)) == 0) {
        void *mapped = mmap(NULL, sizeof(struct counters), PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
        if (mapped != MAP_FAILED) shared = mapped;
    }
    close(descriptor);
}

static inline void count(void) {
    struct counters *counters = shared;
    if (counters == NULL) return;
    struct slot *slot = mine;
    if (slot == NULL) {
        uint64_t index = atomic_fetch_add_explicit(&counters->threads, 1, memory_order_relaxed);
        // Threads past the last slot share it, under thread id -1.
        slot = &counters->slots[index < SLOTS - 1 ? index : SLOTS - 1];
        atomic_store_explicit(&slot->thread, index < SLOTS - 1 ? (int64_t)syscall(SYS_gettid) : -1, memory_order_relaxed);
        mine = slot;
    }
    atomic_fetch_add_explicit(&slot->count, 1, memory_order_relaxed);
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
