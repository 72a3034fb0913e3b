// Parking a thread on a 32-bit word: the one operating-system primitive the mutex delivery
// variant's lock needs that Swift cannot call directly (on Linux, futex(2) is reached only
// through the variadic `syscall`, which Swift does not import).
#ifndef SIGNALS_FUTEX_H
#define SIGNALS_FUTEX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 where the functions below park on the word itself (Linux futex), 0 where they are not
/// available and the caller must park some other way.
int signals_futex_available(void);

/// Sleeps while `*word == expected` (rechecked by the kernel atomically with going to sleep),
/// until a wake on the same address, a signal, or a spurious return. Private to the process.
void signals_futex_wait(uint32_t *word, uint32_t expected);

/// Wakes at most one thread sleeping on `word`.
void signals_futex_wake_one(uint32_t *word);

/// The current thread's thread pointer, read from its register (x86_64 Linux: the word at
/// %fs:0, which glibc and musl point at the thread's own control block; arm64 Linux:
/// tpidr_el0), or 0 where there is no such read here (the caller then uses `pthread_self`).
/// Distinct for every live thread and 16-byte aligned. Inlined into the caller: it saves
/// `pthread_self`'s call through the PLT on every claim. `volatile`, so the read is never
/// merged with one made before a suspension point of an async function, which may resume on
/// another thread.
static inline uintptr_t signals_thread_pointer(void) {
#if defined(__linux__) && defined(__x86_64__)
    uintptr_t p;
    __asm__ volatile("movq %%fs:0, %0" : "=r"(p));
    return p;
#elif defined(__linux__) && defined(__aarch64__)
    uintptr_t p;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(p));
    return p;
#else
    return 0;
#endif
}

/// One pointer per thread for the library's per-thread state object (`DepthBounds`), read on
/// every node-to-node hand-over and every subscription. On Linux a `__thread` variable in the
/// initial-exec model: one load relative to the thread pointer, where `pthread_getspecific`
/// is a call through the PLT (the pthread key stays, for its destructor). The object's owner
/// is that key: the slot only caches the pointer and is cleared by the key's destructor.
#if defined(__linux__)
extern __thread void *signals_thread_state_slot __attribute__((tls_model("initial-exec")));
static inline void *signals_thread_state(void) { return signals_thread_state_slot; }
static inline void signals_set_thread_state(void *p) { signals_thread_state_slot = p; }
#define SIGNALS_THREAD_STATE_SLOT 1
#else
static inline void *signals_thread_state(void) { return (void *)0; }
static inline void signals_set_thread_state(void *p) { (void)p; }
#define SIGNALS_THREAD_STATE_SLOT 0
#endif

#ifdef __cplusplus
}
#endif

#endif
