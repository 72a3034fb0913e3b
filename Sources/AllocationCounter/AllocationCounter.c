// Counts the process's allocation requests by defining the malloc family in the executable
// itself: ELF symbol lookup starts with the executable, so every shared library (the Swift
// runtime, Foundation, libc's own helpers) calls these definitions, which count and forward to
// the next definition in lookup order: glibc's malloc, or jemalloc's when it is preloaded.
//
// Why not a size header or a library to preload: the bench measures time in the same
// repetitions as allocations, so the allocator must stay the one being measured; each
// pointer is the next allocator's own pointer, unchanged, and nothing has to be preloaded.
//
// Counting is per thread, in a block the thread owns, so two threads allocating at once
// never write the same cache line (a shared atomic counter would add its contention to the
// contended workloads' timings). Blocks outlive their threads: at thread exit a block is
// released, keeping its totals, and a later thread takes it over, so the process total is
// the sum over every block ever handed out.
//
// Compiled out under AddressSanitizer and ThreadSanitizer (they define the malloc family
// themselves) and off Linux; then signals_allocation_counter_active() returns 0.

#define _GNU_SOURCE  // RTLD_NEXT, RTLD_DEFAULT
#include "AllocationCounter.h"

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define SIGNALS_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define SIGNALS_SANITIZED 1
#endif

#if defined(__linux__) && !defined(SIGNALS_SANITIZED)

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))

// --- the next allocator, found lazily with dlsym(RTLD_NEXT) -------------------------------

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_fn)(size_t, size_t);

static _Atomic(malloc_fn) next_malloc;
static _Atomic(calloc_fn) next_calloc;
static _Atomic(realloc_fn) next_realloc;
static _Atomic(free_fn) next_free;
static _Atomic(posix_memalign_fn) next_posix_memalign;
static _Atomic(aligned_fn) next_aligned_alloc;
static _Atomic(aligned_fn) next_memalign;

// dlsym may allocate while it looks the functions up; those requests (made on the resolving
// thread) are served from this arena, never freed, and never counted.
static alignas(16) char arena[64 * 1024];
static _Atomic size_t arena_used;
static TLS int resolving;

static int in_arena(const void *p) {
    return (const char *)p >= arena && (const char *)p < arena + sizeof(arena);
}

static void *arena_alloc(size_t n) {
    // A 16-byte header keeps the size (for realloc) and the 16-byte alignment.
    size_t total = ((n + 15) & ~(size_t)15) + 16;
    size_t at = atomic_fetch_add(&arena_used, total);
    if (at + total > sizeof(arena)) return NULL;
    *(size_t *)(arena + at) = n;
    return arena + at + 16;
}

static void resolve(void) {
    resolving = 1;
    atomic_store(&next_calloc, (calloc_fn)dlsym(RTLD_NEXT, "calloc"));
    atomic_store(&next_realloc, (realloc_fn)dlsym(RTLD_NEXT, "realloc"));
    atomic_store(&next_free, (free_fn)dlsym(RTLD_NEXT, "free"));
    atomic_store(&next_posix_memalign, (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign"));
    atomic_store(&next_aligned_alloc, (aligned_fn)dlsym(RTLD_NEXT, "aligned_alloc"));
    atomic_store(&next_memalign, (aligned_fn)dlsym(RTLD_NEXT, "memalign"));
    // Last: a non-null next_malloc says every pointer is set.
    atomic_store(&next_malloc, (malloc_fn)dlsym(RTLD_NEXT, "malloc"));
    resolving = 0;
}

static inline int ready(void) {
    if (__builtin_expect(atomic_load_explicit(&next_malloc, memory_order_acquire) != NULL, 1)) return 1;
    if (resolving) return 0;
    resolve();
    return 1;
}

#define NEXT(name) atomic_load_explicit(&next_##name, memory_order_relaxed)

// --- per-thread counter blocks ------------------------------------------------------------

typedef struct {
    // Written only by the owning thread (a load and a store, no read-modify-write), read by
    // any thread; atomics so those reads are defined.
    _Atomic uint64_t count;
    _Atomic uint64_t bytes;
    _Atomic int owned;
    char pad[64 - 2 * sizeof(uint64_t) - sizeof(int)];
} counter_block;

#define BLOCKS 1024
static counter_block blocks[BLOCKS];
static _Atomic size_t blocks_used;
// Requests no block took: a thread past its exit destructor, a thread setting its block up,
// more than BLOCKS threads alive at once. Rare, so one shared atomic is fine.
static _Atomic uint64_t shared_count;
static _Atomic uint64_t shared_bytes;

enum { NO_BLOCK = 0, HAS_BLOCK, SETTING_UP, EXITED };
static TLS counter_block *my_block;
static TLS int my_state;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void release_block(void *p) {
    counter_block *b = p;
    my_block = NULL;
    my_state = EXITED;
    // Release: the next owner's acquiring claim sees this thread's last counts.
    atomic_store_explicit(&b->owned, 0, memory_order_release);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, release_block); }

static counter_block *claim_block(void) {
    size_t used = atomic_load(&blocks_used);
    for (size_t i = 0; i < used && i < BLOCKS; i++) {
        int expected = 0;
        if (atomic_load_explicit(&blocks[i].owned, memory_order_relaxed) == 0
            && atomic_compare_exchange_strong_explicit(&blocks[i].owned, &expected, 1,
                                                       memory_order_acquire, memory_order_relaxed)) {
            return &blocks[i];
        }
    }
    size_t i = atomic_fetch_add(&blocks_used, 1);
    if (i >= BLOCKS) {
        atomic_store(&blocks_used, BLOCKS);
        return NULL;
    }
    atomic_store_explicit(&blocks[i].owned, 1, memory_order_relaxed);
    return &blocks[i];
}

static __attribute__((noinline)) void count_slow(size_t n) {
    if (my_state == NO_BLOCK) {
        my_state = SETTING_UP;
        // Neither call allocates for the first 32 keys; if one does, that request lands in
        // the shared counters (my_state is SETTING_UP), with no lock held.
        pthread_once(&exit_key_once, make_exit_key);
        counter_block *b = claim_block();
        if (b != NULL) {
            pthread_setspecific(exit_key, b);
            my_block = b;
            my_state = HAS_BLOCK;
            atomic_store_explicit(&b->count, atomic_load_explicit(&b->count, memory_order_relaxed) + 1, memory_order_relaxed);
            atomic_store_explicit(&b->bytes, atomic_load_explicit(&b->bytes, memory_order_relaxed) + n, memory_order_relaxed);
            return;
        }
        my_state = EXITED;  // no block to be had: count in the shared counters from now on
    }
    atomic_fetch_add_explicit(&shared_count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&shared_bytes, n, memory_order_relaxed);
}

static inline void count(size_t n) {
    counter_block *b = my_block;
    if (__builtin_expect(b == NULL, 0)) {
        count_slow(n);
        return;
    }
    atomic_store_explicit(&b->count, atomic_load_explicit(&b->count, memory_order_relaxed) + 1, memory_order_relaxed);
    atomic_store_explicit(&b->bytes, atomic_load_explicit(&b->bytes, memory_order_relaxed) + n, memory_order_relaxed);
}

// --- the interposed entry points ----------------------------------------------------------

void *malloc(size_t n) {
    if (!ready()) return arena_alloc(n);
    void *p = NEXT(malloc)(n);
    if (p != NULL) count(n);
    return p;
}

void *calloc(size_t k, size_t n) {
    size_t total;
    if (__builtin_mul_overflow(k, n, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    if (!ready()) return arena_alloc(total);  // the arena is zeroed and never reused
    void *p = NEXT(calloc)(k, n);
    if (p != NULL) count(total);
    return p;
}

void *realloc(void *old, size_t n) {
    if (in_arena(old)) {
        void *p = malloc(n);
        if (p != NULL) memcpy(p, old, *((size_t *)old - 2) < n ? *((size_t *)old - 2) : n);
        return p;
    }
    if (!ready()) return arena_alloc(n);
    void *p = NEXT(realloc)(old, n);
    // realloc(p, 0) frees; every other successful call is one request of n bytes.
    if (p != NULL && n > 0) count(n);
    return p;
}

void free(void *p) {
    if (p == NULL || in_arena(p)) return;
    if (!ready()) return;  // cannot happen: p came from the next allocator, so it is resolved
    NEXT(free)(p);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    if (!ready()) {
        *out = arena_alloc(n);
        return *out != NULL ? 0 : ENOMEM;
    }
    int rc = NEXT(posix_memalign)(out, alignment, n);
    if (rc == 0) count(n);
    return rc;
}

void *aligned_alloc(size_t alignment, size_t n) {
    if (!ready()) return arena_alloc(n);
    void *p = NEXT(aligned_alloc)(alignment, n);
    if (p != NULL) count(n);
    return p;
}

void *memalign(size_t alignment, size_t n) {
    if (!ready()) return arena_alloc(n);
    void *p = NEXT(memalign)(alignment, n);
    if (p != NULL) count(n);
    return p;
}

// --- reading ------------------------------------------------------------------------------

int signals_allocation_counter_active(void) {
    // Some other definition may come first (e.g. a sanitizer runtime linked in some other
    // way): then the shared libraries do not call ours, and the counts would be partial.
    return dlsym(RTLD_DEFAULT, "malloc") == (void *)&malloc;
}

signals_allocation_totals signals_allocation_counter_process(void) {
    signals_allocation_totals t = {
        atomic_load_explicit(&shared_count, memory_order_relaxed),
        atomic_load_explicit(&shared_bytes, memory_order_relaxed),
    };
    size_t used = atomic_load(&blocks_used);
    for (size_t i = 0; i < used && i < BLOCKS; i++) {
        t.count += atomic_load_explicit(&blocks[i].count, memory_order_relaxed);
        t.bytes += atomic_load_explicit(&blocks[i].bytes, memory_order_relaxed);
    }
    return t;
}

signals_allocation_totals signals_allocation_counter_thread(void) {
    signals_allocation_totals t = {0, 0};
    counter_block *b = my_block;
    if (b != NULL) {
        t.count = atomic_load_explicit(&b->count, memory_order_relaxed);
        t.bytes = atomic_load_explicit(&b->bytes, memory_order_relaxed);
    }
    return t;
}

#else

int signals_allocation_counter_active(void) { return 0; }

signals_allocation_totals signals_allocation_counter_process(void) {
    signals_allocation_totals t = {0, 0};
    return t;
}

signals_allocation_totals signals_allocation_counter_thread(void) {
    signals_allocation_totals t = {0, 0};
    return t;
}

#endif
