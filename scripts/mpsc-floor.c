// The floor of a many-producer, one-consumer queue on the machine it runs on: what the
// lock-free delivery path's queue could reach if sending cost nothing but the queue itself.
// A C model, so no Swift code generation is in the figure (issue 17, goal 6).
//
//   gcc -O2 -pthread -o mpsc-floor scripts/mpsc-floor.c    (add -static to carry it elsewhere)
//   ./mpsc-floor faa|cas|xchg THREADS N     contended read-modify-writes on one line:
//                                           aggregate ns per operation
//   ./mpsc-floor cs|fs|cf|ff THREADS N      THREADS-1 producers push N values each, one
//                                           consumer takes them in order and checks each
//                                           producer's order: aggregate ns per value
//
// Queue modes, first letter the producers' claim on the shared tail, second letter where the
// "published" mark lives:
//   c… CAS loop on tail (what LockFreeDeliveryQueue does: it must see the closed bit)
//   f… fetch-and-add on tail
//   …s the mark in the slot, on the element's line (a 32-byte slot: Int payload and stamp)
//   …f a separate array of one-byte flags, 64 to a line (the queue's layout before issue 17)
// `csp` prefetches PD slots ahead in the consumer (PD from the environment, default 8).
//
// Values never wrap: the buffer holds every value of the run, so no recycling is modelled.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    _Atomic long stamp;
    long value;
    long pad[2];
} Slot;

static const char *mode;
static long perThread;
static long prefetchDistance = 8;
static _Alignas(128) _Atomic long counter;
static _Alignas(128) _Atomic int go;
static _Alignas(128) _Atomic long tail;
static Slot *slots;
static _Atomic char *flags;
static long *values;

static double nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *readModifyWrite(void *unused) {
    (void)unused;
    while (!atomic_load(&go)) {}
    if (!strcmp(mode, "faa")) {
        for (long i = 0; i < perThread; i++) atomic_fetch_add(&counter, 1);
    } else if (!strcmp(mode, "xchg")) {
        for (long i = 0; i < perThread; i++) atomic_exchange(&counter, i);
    } else {
        for (long i = 0; i < perThread; i++) {
            long v = atomic_load_explicit(&counter, memory_order_relaxed);
            while (!atomic_compare_exchange_weak(&counter, &v, v + 1)) {}
        }
    }
    return NULL;
}

static void *producer(void *arg) {
    long id = (long)arg;
    while (!atomic_load(&go)) {}
    for (long i = 0; i < perThread; i++) {
        long p;
        if (mode[0] == 'c') {
            p = atomic_load_explicit(&tail, memory_order_relaxed);
            while (!atomic_compare_exchange_weak(&tail, &p, p + 1)) {}
        } else {
            p = atomic_fetch_add(&tail, 1);
        }
        long v = (id << 40) | i;
        if (mode[1] == 's') {
            slots[p].value = v;
            atomic_store_explicit(&slots[p].stamp, p + 1, memory_order_release);
        } else {
            values[p] = v;
            atomic_store_explicit(&flags[p], 1, memory_order_release);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s faa|cas|xchg|cs|csp|fs|cf|ff THREADS N\n", argv[0]);
        return 2;
    }
    mode = argv[1];
    int threads = atoi(argv[2]);
    perThread = atol(argv[3]);
    if (getenv("PD")) prefetchDistance = atol(getenv("PD"));
    if (prefetchDistance < 0 || prefetchDistance > 64) prefetchDistance = 8;
    if (threads < 2 || threads > 64 || perThread < 1) {
        fprintf(stderr, "THREADS must be 2-64 and N at least 1\n");
        return 2;
    }
    pthread_t th[64];
    if (!strcmp(mode, "faa") || !strcmp(mode, "cas") || !strcmp(mode, "xchg")) {
        for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, readModifyWrite, NULL);
        double start = nanos();
        atomic_store(&go, 1);
        for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
        printf("%s threads=%d %.1f ns/op aggregate\n", mode, threads, (nanos() - start) / (perThread * threads));
        return 0;
    }
    if (strlen(mode) < 2 || !strchr("cf", mode[0]) || !strchr("sf", mode[1])) {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    long total = perThread * (threads - 1);
    slots = aligned_alloc(64, sizeof(Slot) * (total + 64));
    memset(slots, 0, sizeof(Slot) * (total + 64));
    flags = aligned_alloc(64, (total + 64 + 63) / 64 * 64);
    memset((void *)flags, 0, total + 64);
    values = aligned_alloc(64, (8 * total + 63) / 64 * 64);
    memset(values, 0, 8 * total);
    long last[64];
    for (int i = 0; i < 64; i++) last[i] = -1;
    for (long i = 0; i < threads - 1; i++) pthread_create(&th[i], NULL, producer, (void *)i);
    double start = nanos();
    atomic_store(&go, 1);
    long outOfOrder = 0;
    for (long p = 0; p < total; p++) {
        long v;
        if (mode[1] == 's') {
            if (mode[2] == 'p') __builtin_prefetch(&slots[p + prefetchDistance]);
            while (atomic_load_explicit(&slots[p].stamp, memory_order_acquire) != p + 1) {}
            v = slots[p].value;
        } else {
            while (!atomic_load_explicit(&flags[p], memory_order_acquire)) {}
            v = values[p];
        }
        long id = v >> 40, i = v & ((1L << 40) - 1);
        if (i != last[id] + 1) outOfOrder++;
        last[id] = i;
    }
    double end = nanos();
    for (int i = 0; i < threads - 1; i++) pthread_join(th[i], NULL);
    printf("%s threads=%d (%d producers) %.1f ns/value aggregate, out of order %ld\n",
           mode, threads, threads - 1, (end - start) / total, outOfOrder);
    return outOfOrder == 0 ? 0 : 1;
}
