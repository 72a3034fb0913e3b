// The floor of a many-producer, one-consumer queue on the machine it runs on: what the
// lock-free delivery path's queue could reach if sending cost nothing but the queue itself.
// A C model, so no Swift code generation is in the figure: it tells whether a queue design
// can reach a target on a machine before the Swift version is written.
//
//   gcc -O2 -pthread -o mpsc-floor scripts/mpsc-floor.c    (add -static to carry it elsewhere)
//   ./mpsc-floor faa|cas|xchg THREADS N     contended read-modify-writes on one line:
//                                           aggregate ns per operation
//   ./mpsc-floor cs|fs|cf|ff|fc|hc|ha THREADS N
//                                           THREADS-1 producers push N values each, one
//                                           consumer takes them in order and checks each
//                                           producer's order: aggregate ns per value
//
// Queue modes, first letter the producers' claim on the shared tail, second letter where the
// "published" mark lives:
//   c… CAS loop on tail (what LockFreeDeliveryQueue does: it must see the closed bit)
//   f… fetch-and-add on tail
//   …s the mark in the slot, on the element's line (a 32-byte slot: Int payload and stamp)
//   …f a separate array of one-byte flags, 64 to a line (an earlier layout of the queue)
// `csp` prefetches PD slots ahead in the consumer (PD from the environment, default 8).
//
// Combining modes (fewer than one read-modify-write on the shared tail per value), both over
// the `cs` slot layout, so the consumer's side is the same as the queue's today:
//   fc flat combining (Hendler, Incze, Shavit, Tzafrir, SPAA 2010): a producer writes its
//      value into its own publication record and marks it pending; whoever takes the combiner
//      flag (one CAS on a line of its own) collects every pending record, claims as many
//      positions with ONE CAS on tail, writes the slots and marks the records done. A producer
//      returns only once its value is in its slot, so a send that returned before another
//      began is delivered first (linearizable, not only per-producer FIFO), and the claim is
//      still one CAS that can see a closed bit, so the end stays one decision.
//   hc the hybrid the Swift queue would use: one CAS on tail first (the uncontended path,
//      unchanged); only a producer whose CAS fails takes the flat-combining path.
//   ha the hybrid, but the combiner only hands out positions: each producer writes its own
//      slot (its value is in its own cache), so the combiner moves one record line per value
//      instead of a record line and a slot line.
// Both report at the end how many values went through the tail per read-modify-write on it,
// and how often a waiter had to yield (on a machine with fewer cores than threads a
// descheduled combiner holds its batch's producers: the cost the model makes visible).
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

// Flat combining: a publication record per producer, and the combiner flag.
typedef struct {
    _Alignas(64) _Atomic long state;   // 0 idle, 1 pending, 2 done
    long value;
    long position;                     // ha: the slot the combiner gave this value
} Record;
static Record records[64];
static int producerCount;
static _Alignas(128) _Atomic int combinerFlag;
static _Alignas(128) _Atomic long tailOperations;  // read-modify-writes that claimed positions
static _Atomic long yields;
static int producersPublish;           // ha: the combiner hands out positions only

#include <sched.h>

// Claims `count` positions with one CAS loop on tail (a CAS, not fetch-and-add, because the
// real queue's tail holds the closed bit that the claim must see).
static long claim(long count) {
    long p = atomic_load_explicit(&tail, memory_order_relaxed);
    while (!atomic_compare_exchange_weak(&tail, &p, p + count)) {}
    atomic_fetch_add_explicit(&tailOperations, 1, memory_order_relaxed);
    return p;
}

static void publish(long p, long v) {
    slots[p].value = v;
    atomic_store_explicit(&slots[p].stamp, p + 1, memory_order_release);
}

// The combiner's pass: every pending record in one batch, one claim for all of them.
static void combine(void) {
    int pending[64];
    int count = 0;
    for (int r = 0; r < producerCount; r++)
        if (atomic_load_explicit(&records[r].state, memory_order_acquire) == 1) pending[count++] = r;
    if (count == 0) return;
    long base = claim(count);
    for (int j = 0; j < count; j++) {
        if (producersPublish) records[pending[j]].position = base + j;
        else publish(base + j, records[pending[j]].value);
        atomic_store_explicit(&records[pending[j]].state, 2, memory_order_release);
    }
}

static void sendCombining(long id, long v) {
    Record *mine = &records[id];
    mine->value = v;
    atomic_store_explicit(&mine->state, 1, memory_order_release);
    long spins = 0;
    for (;;) {
        if (atomic_load_explicit(&mine->state, memory_order_acquire) == 2) break;
        int expected = 0;
        if (atomic_load_explicit(&combinerFlag, memory_order_relaxed) == 0
            && atomic_compare_exchange_strong(&combinerFlag, &expected, 1)) {
            combine();
            atomic_store_explicit(&combinerFlag, 0, memory_order_release);
            continue;
        }
        if (++spins % 4096 == 0) { atomic_fetch_add_explicit(&yields, 1, memory_order_relaxed); sched_yield(); }
    }
    if (producersPublish) publish(mine->position, v);
    atomic_store_explicit(&mine->state, 0, memory_order_relaxed);
}

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
    if (!strcmp(mode, "fc") || !strcmp(mode, "hc") || !strcmp(mode, "ha")) {
        int hybrid = mode[0] == 'h';
        for (long i = 0; i < perThread; i++) {
            long v = (id << 40) | i;
            if (hybrid) {
                long p = atomic_load_explicit(&tail, memory_order_relaxed);
                if (atomic_compare_exchange_strong(&tail, &p, p + 1)) {
                    atomic_fetch_add_explicit(&tailOperations, 1, memory_order_relaxed);
                    publish(p, v);
                    continue;
                }
            }
            sendCombining(id, v);
        }
        return NULL;
    }
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
        fprintf(stderr, "usage: %s faa|cas|xchg|cs|csp|fs|cf|ff|fc|hc|ha THREADS N\n", argv[0]);
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
    int combining = !strcmp(mode, "fc") || !strcmp(mode, "hc") || !strcmp(mode, "ha");
    producersPublish = !strcmp(mode, "ha");
    if (!combining && (strlen(mode) < 2 || !strchr("cf", mode[0]) || !strchr("sf", mode[1]))) {
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
    producerCount = threads - 1;
    for (long i = 0; i < threads - 1; i++) pthread_create(&th[i], NULL, producer, (void *)i);
    double start = nanos();
    atomic_store(&go, 1);
    long outOfOrder = 0;
    for (long p = 0; p < total; p++) {
        long v;
        if (combining || mode[1] == 's') {
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
    printf("%s threads=%d (%d producers) %.1f ns/value aggregate, out of order %ld",
           mode, threads, threads - 1, (end - start) / total, outOfOrder);
    if (combining)
        printf(", %.2f values per tail read-modify-write, %ld yields",
               (double)total / atomic_load(&tailOperations), atomic_load(&yields));
    printf("\n");
    return outOfOrder == 0 ? 0 : 1;
}
