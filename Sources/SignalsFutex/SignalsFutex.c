#include "SignalsFutex.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

int signals_futex_available(void) { return 1; }

__thread void *signals_thread_state_slot __attribute__((tls_model("initial-exec"))) = 0;

void signals_futex_wait(uint32_t *word, uint32_t expected) {
    // EAGAIN (the word changed), EINTR and spurious wake-ups all return: the caller loops.
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, (void *)0, (void *)0, 0);
}

void signals_futex_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, (void *)0, (void *)0, 0);
}

#else

int signals_futex_available(void) { return 0; }
void signals_futex_wait(uint32_t *word, uint32_t expected) { (void)word; (void)expected; }
void signals_futex_wake_one(uint32_t *word) { (void)word; }

#endif
