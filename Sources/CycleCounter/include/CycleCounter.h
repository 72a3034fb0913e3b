// The CPU's own time-stamp counter, read in a few instructions: Swift has no intrinsic for
// `rdtsc` or `mrs cntvct_el0`. bench's latency samples use it where it ticks at a constant rate
// on every core (checked by the caller), calibrated against CLOCK_MONOTONIC.
#ifndef SIGNALS_CYCLE_COUNTER_H
#define SIGNALS_CYCLE_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 where `signals_cycle_counter_read` reads a hardware counter (x86_64 `rdtsc`, arm64
/// `cntvct_el0`); 0 elsewhere, where it returns 0 and must not be used.
static inline int signals_cycle_counter_available(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

/// The counter, ordered after every earlier instruction: `lfence` (x86_64) and `isb` (arm64)
/// keep the read from executing before the work it closes has completed, which an unfenced
/// read may under out-of-order execution. The fence is part of the read's measured cost.
static inline uint64_t signals_cycle_counter_read(void) {
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
#else
    return 0;
#endif
}

/// arm64: the counter's frequency in Hz (`cntfrq_el0`); 0 elsewhere (x86_64's is calibrated).
static inline uint64_t signals_cycle_counter_frequency(void) {
#if defined(__aarch64__)
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return f;
#else
    return 0;
#endif
}

#ifdef __cplusplus
}
#endif

#endif
