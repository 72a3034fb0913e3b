#ifndef SIGNALS_ALLOCATION_COUNTER_H
#define SIGNALS_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Cumulative allocation requests and requested bytes seen by the interposed allocator
/// entry points (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign).
typedef struct {
    uint64_t count;
    uint64_t bytes;
} signals_allocation_totals;

/// 1 when this process's malloc family goes through the counter (Linux, not under a
/// sanitizer, and the symbols were not preempted by another definition); 0 otherwise.
int signals_allocation_counter_active(void);

/// Every thread's requests since the process started (threads that exited included).
signals_allocation_totals signals_allocation_counter_process(void);

/// The calling thread's requests since it started.
signals_allocation_totals signals_allocation_counter_thread(void);

#endif
