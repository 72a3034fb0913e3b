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

#ifdef __cplusplus
}
#endif

#endif
