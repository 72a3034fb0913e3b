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
// One node's claim, a lone sender and a biased claim (`./mpsc-floor node ROUNDS VALUES`):
// the single-node delivery path of the lock-free variant (claim, gate, map, gate, handler,
// release) in two modes, alternated in every round of one process so the pair shares the
// machine's drift:
//   cas   today's protocol: claim with a CAS 0 -> token, release with a CAS token -> 0
//   bias  a biased claim (Kawachiya, Koseki, Onodera, OOPSLA 2002; Dice, Huang, Yang 2001):
//         the node's `owner` thread claims and releases with plain stores and compiler fences
//         (a busy mark in its own thread record); any other thread takes the CAS claim, sees the
//         owner and revokes: it clears `owner`, runs an asymmetric fence
//         (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), Linux only) and waits until the
//         owner's own record no longer says it is delivering to this node. The node then stays on the CAS protocol until one thread has taken the CAS
//         claim REBIAS times in a row (environment, default 64), which re-biases it to that
//         thread. Scenarios, VALUES values each: lone (one sender), switch-N (two senders
//         taking turns every N values (the time inside turns; two: wall clock;
//         lone: the thread's CPU time), N = 1, 10, 1000; at most
//         2,000 turns), two (two senders at once, each its
//         share), and the first send after a turn change (the revocation, timed by itself).
//         `./mpsc-floor node-lone cas|bias VALUES`: the lone sender alone, for callgrind.
//         The `cas` mode's path, with the input's status check, the re-entrant ring and fan-out
//         added, is `bench`'s `floor` subject (Sources/DeliveryFloor), measured with the
//         harness's handlers beside the library in every report (×floor).
//         Every delivery checks that no other delivery of the node overlaps it and counts
//         values: a run with a violation exits 1.
//   A contended sender here spins for the claim (test and test-and-set) instead of queueing
//   its value as the library does; both modes do the same, so the pair stays comparable.
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
#include <unistd.h>
#include <sys/syscall.h>
#ifdef __linux__
#include <linux/membarrier.h>
#endif

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


// ---- One node: the CAS claim and the biased claim ----

typedef struct Node Node;
struct Node {
    _Alignas(64) _Atomic unsigned long claim;   // 0 idle, else the holder's token
    _Alignas(64) _Atomic unsigned long owner;   // the biased thread's record, 0 when not biased
    _Alignas(64) _Atomic int stageActive;       // the stage's and the terminal's cancel gates
    _Atomic int terminalActive;
    long (*map)(long);
    void (*handler)(Node *, long);
    // Holder-only (guarded by whichever claim is held):
    unsigned long lastSender;
    long streak;
    long revocations;
    long rebiases;
    long sum, count, inside, violations;
};

// A thread's token is its record, which says which node it is delivering to on the biased
// path. One flag per node, written by whichever thread thinks it is the owner, is wrong, and
// this model's exclusion check caught it: a revoked owner that read `owner` before the fence
// and is descheduled before it stores its flag can clear the flag of the node's next owner
// in the middle of a delivery. Each thread writes only its own record. Records are never
// freed or reused: a revoker reads the record of an owner that may have exited.
typedef struct { _Alignas(64) _Atomic(Node *) busyNode; } ThreadRecord;
enum { recordCapacity = 1 << 16 };
static ThreadRecord *threadRecords;
static _Atomic long nextThreadRecord;
static __thread ThreadRecord *threadRecord;
static __attribute__((noinline)) ThreadRecord *newThreadRecord(void) {
    long i = atomic_fetch_add(&nextThreadRecord, 1);
    if (i >= recordCapacity) { fprintf(stderr, "out of thread records\n"); exit(2); }
    return threadRecord = &threadRecords[i];
}
static inline ThreadRecord *myRecord(void) {
    ThreadRecord *r = threadRecord;
    return __builtin_expect(r != NULL, 1) ? r : newThreadRecord();
}
static inline unsigned long threadToken(void) { return (unsigned long)myRecord(); }
static long rebiasAfter = 64;
static int fenceKind;                          // 1 membarrier, 0 unavailable (bias mode refused)

static __attribute__((noinline)) long mapPlusOne(long v) { return v + 1; }
static __attribute__((noinline)) void sumHandler(Node *n, long v) { n->sum += v; }

static inline void cpuRelax(void) {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

// The work of one delivery: the stage's gate, the map, the terminal's gate, the handler.
static inline void deliver(Node *n, long v) {
    if (n->inside) n->violations++;
    n->inside = 1;
    if (atomic_load_explicit(&n->stageActive, memory_order_relaxed)) {
        long m = n->map(v);
        if (atomic_load_explicit(&n->terminalActive, memory_order_relaxed)) {
            n->handler(n, m);
            n->count++;
        }
    }
    n->inside = 0;
}

// Spins a while, then yields: on a machine with fewer free cores than threads the thread
// being waited for may need this core.
static inline void backOff(long *spins) {
    if (++*spins % 64 == 0) sched_yield(); else cpuRelax();
}

static inline void claimCAS(Node *n, unsigned long me) {
    long spins = 0;
    for (;;) {
        unsigned long expected = 0;
        if (atomic_load_explicit(&n->claim, memory_order_relaxed) == 0
            && atomic_compare_exchange_weak(&n->claim, &expected, me)) return;
        backOff(&spins);
    }
}

static inline void releaseCAS(Node *n, unsigned long me) {
    // A CAS, as the library's release must see the "queued since" bit.
    unsigned long expected = me;
    atomic_compare_exchange_strong(&n->claim, &expected, 0);
}

static void sendCAS(Node *n, long v) {
    unsigned long me = threadToken();
    claimCAS(n, me);
    deliver(n, v);
    releaseCAS(n, me);
}

static void asymmetricFence(void) {
#ifdef __linux__
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) abort();
#else
    abort();
#endif
}

// Called holding the CAS claim, having seen another thread's token in `owner`.
static __attribute__((noinline)) void revokeBias(Node *n, unsigned long owner) {
    ThreadRecord *r = (ThreadRecord *)owner;
    atomic_store(&n->owner, 0);
    // After this every thread of the process has run a full barrier: the owner either had
    // stored its busy mark before it (we see it below and wait) or loads `owner` after it
    // (sees 0 and takes the CAS path).
    asymmetricFence();
    long spins = 0;
    while (atomic_load_explicit(&r->busyNode, memory_order_acquire) == n) backOff(&spins);
    n->revocations++;
}

static __attribute__((noinline)) void sendBiasedSlow(Node *n, long v, unsigned long me) {
    claimCAS(n, me);
    // `owner` is only ever set by a thread holding the CAS claim, so once we hold it this
    // load sees any bias set before; a biased owner never takes the CAS claim, so revoke.
    unsigned long o = atomic_load(&n->owner);
    if (o != 0 && o != me) revokeBias(n, o);
    deliver(n, v);
    if (n->lastSender == me) {
        if (++n->streak == rebiasAfter && o != me) {
            atomic_store(&n->owner, me);
            n->rebiases++;
        }
    } else {
        n->lastSender = me;
        n->streak = 1;
    }
    releaseCAS(n, me);
}

static inline void sendBiased(Node *n, long v) {
    ThreadRecord *r = myRecord();
    unsigned long me = (unsigned long)r;
    if (atomic_load_explicit(&n->owner, memory_order_relaxed) == me) {
        atomic_store_explicit(&r->busyNode, n, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);      // the compiler keeps the order; the
        if (atomic_load_explicit(&n->owner, memory_order_relaxed) == me) {   // revoker's
            deliver(n, v);                                                    // membarrier
            atomic_signal_fence(memory_order_seq_cst);                        // orders the CPU
            atomic_store_explicit(&r->busyNode, NULL, memory_order_release);
            return;
        }
        atomic_store_explicit(&r->busyNode, NULL, memory_order_release);
    }
    sendBiasedSlow(n, v, me);
}

static double threadCPUNanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static Node *theNode;
static int biasedMode;
static long nodeValues;
static long turnLength;
static _Alignas(64) _Atomic long turn;          // switch-N: whose turn, counted in turns
static _Alignas(64) _Atomic int nodeGo;
static double firstSendNs[2];
static double turnNs[2];                        // time inside turns: the sends, not the wait
static long firstSends[2];

static inline void nodeSend(long v) {
    if (biasedMode) sendBiased(theNode, v); else sendCAS(theNode, v);
}

static inline unsigned long long cycles(void) {
#if defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
#else
    return (unsigned long long)nanos();
#endif
}
static double nsPerCycle = 1;

static void resetNode(void) {
    memset(theNode, 0, sizeof(Node));
    atomic_store(&theNode->stageActive, 1);
    atomic_store(&theNode->terminalActive, 1);
    theNode->map = mapPlusOne;
    theNode->handler = sumHandler;
    atomic_store(&turn, 0);
    firstSendNs[0] = firstSendNs[1] = 0;
    turnNs[0] = turnNs[1] = 0;
    firstSends[0] = firstSends[1] = 0;
}

// A turn change costs a cache line each way (and on a busy machine a time slice), so the
// switching scenarios run at most 2,000 turns.
static long switchTurns(long values) {
    long turns = values / turnLength;
    return turns > 2000 ? 2000 : turns;
}

// switch-N: thread `id` (0 or 1) sends its turns' values; turns alternate 0, 1, 0, ...
static void *switchSender(void *arg) {
    long id = (long)arg;
    long turns = switchTurns(nodeValues);
    while (!atomic_load(&nodeGo)) {}
    for (long t = id; t < turns; t += 2) {
        long spins = 0;
        while (atomic_load_explicit(&turn, memory_order_acquire) != t) backOff(&spins);
        unsigned long long c0 = cycles();
        nodeSend(t * turnLength);
        unsigned long long c1 = cycles();
        firstSendNs[id] += (c1 - c0) * nsPerCycle;
        firstSends[id]++;
        for (long i = 1; i < turnLength; i++) nodeSend(t * turnLength + i);
        turnNs[id] += (cycles() - c0) * nsPerCycle;
        atomic_store_explicit(&turn, t + 1, memory_order_release);
    }
    return NULL;
}

static void *concurrentSender(void *arg) {
    (void)arg;
    while (!atomic_load(&nodeGo)) {}
    for (long i = 0; i < nodeValues / 2; i++) nodeSend(i);
    return NULL;
}

typedef struct { double perValue, firstSend; long revocations, rebiases; } NodeResult;

// scenario: 0 lone, 1 two at once, 2 switch every turnLength values
static NodeResult runNodeScenario(int scenario, int biased) {
    biasedMode = biased;
    resetNode();
    NodeResult r = {0, 0, 0, 0};
    long expected = nodeValues;
    if (scenario == 0) {
        // The thread's CPU time, not the wall clock: on a shared machine the lone sender's
        // time off the CPU is not the claim's cost.
        double start = threadCPUNanos();
        for (long i = 0; i < nodeValues; i++) nodeSend(i);
        r.perValue = (threadCPUNanos() - start) / nodeValues;
    } else {
        pthread_t th[2];
        atomic_store(&nodeGo, 0);
        if (scenario == 2) expected = switchTurns(nodeValues) * turnLength;
        else expected = nodeValues / 2 * 2;
        for (long i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, scenario == 1 ? concurrentSender : switchSender, (void *)i);
        double start = nanos();
        atomic_store(&nodeGo, 1);
        for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
        r.perValue = (nanos() - start) / expected;
        // Switching: the time spent sending, from each turn's first send to its last; the
        // hand-over of the turn between threads (a cache line each way, and on a busy machine
        // a wait for a time slice) is the harness's, not the claim's.
        if (scenario == 2) r.perValue = (turnNs[0] + turnNs[1]) / expected;
        if (scenario == 2) r.firstSend = (firstSendNs[0] + firstSendNs[1]) / (firstSends[0] + firstSends[1]);
    }
    if (theNode->violations || theNode->count != expected) {
        fprintf(stderr, "exclusion broken: %ld overlapping deliveries, %ld of %ld delivered\n",
                theNode->violations, theNode->count, expected);
        exit(1);
    }
    r.revocations = theNode->revocations;
    r.rebiases = theNode->rebiases;
    return r;
}

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
    qsort(v, n, sizeof(double), compareDoubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One thread, one mode, VALUES sends and nothing else: for counting instructions per value
// (valgrind --tool=callgrind at two VALUES, the difference over the difference).
static int nodeLoneMain(int biased, long values) {
    theNode = aligned_alloc(64, (sizeof(Node) + 63) / 64 * 64);
    threadRecords = aligned_alloc(64, sizeof(ThreadRecord) * recordCapacity);
    memset(threadRecords, 0, sizeof(ThreadRecord) * recordCapacity);
    nodeValues = values;
    NodeResult r = runNodeScenario(0, biased);
    printf("node-lone %s: %ld values, %.2f ns/value (thread CPU time)\n", biased ? "bias" : "cas", values, r.perValue);
    return 0;
}

static int nodeMain(int rounds, long values) {
#ifdef __linux__
    fenceKind = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
    if (!fenceKind) {
        fprintf(stderr, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) is not available here\n");
        return 3;
    }
    if (getenv("REBIAS")) rebiasAfter = atol(getenv("REBIAS"));
    if (rebiasAfter < 1) rebiasAfter = 1;
    theNode = aligned_alloc(64, (sizeof(Node) + 63) / 64 * 64);
    threadRecords = aligned_alloc(64, sizeof(ThreadRecord) * recordCapacity);
    memset(threadRecords, 0, sizeof(ThreadRecord) * recordCapacity);
    nodeValues = values;
    {   // calibrate the TSC against the monotonic clock
        double t0 = nanos(); unsigned long long c0 = cycles();
        while (nanos() - t0 < 2e7) {}
        nsPerCycle = (nanos() - t0) / (double)(cycles() - c0);
    }
    // The asymmetric fence alone, with the other CPU idle and with it running a thread of ours.
    double fenceAlone;
    {
        int k = 20000; double t0 = nanos();
        for (int i = 0; i < k; i++) asymmetricFence();
        fenceAlone = (nanos() - t0) / k;
    }
    struct { const char *name; int scenario; long turn; } scenarios[] = {
        {"lone", 0, 0}, {"switch-1", 2, 1}, {"switch-10", 2, 10}, {"switch-1000", 2, 1000}, {"two", 1, 0},
    };
    int count = sizeof scenarios / sizeof scenarios[0];
    double (*cas)[64] = calloc(count, sizeof *cas), (*bias)[64] = calloc(count, sizeof *bias);
    double (*casFirst)[64] = calloc(count, sizeof *casFirst), (*biasFirst)[64] = calloc(count, sizeof *biasFirst);
    long revocations[16] = {0}, rebiases[16] = {0};
    if (rounds > 64) rounds = 64;
    for (int r = 0; r < rounds; r++) {
        for (int s = 0; s < count; s++) {
            turnLength = scenarios[s].turn ? scenarios[s].turn : 1;
            // alternate which mode goes first in each round
            for (int k = 0; k < 2; k++) {
                int biased = (k + r) % 2;
                NodeResult x = runNodeScenario(scenarios[s].scenario, biased);
                if (biased) { bias[s][r] = x.perValue; biasFirst[s][r] = x.firstSend;
                              revocations[s] += x.revocations; rebiases[s] += x.rebiases; }
                else { cas[s][r] = x.perValue; casFirst[s][r] = x.firstSend; }
            }
        }
    }
    printf("node: %d rounds, %ld values per scenario, REBIAS=%ld; membarrier alone %.0f ns\n",
           rounds, values, rebiasAfter, fenceAlone);
    printf("%-12s %10s %10s %7s %14s %14s %12s %10s\n", "scenario", "cas ns/v", "bias ns/v", "ratio",
           "cas 1st send", "bias 1st send", "revocations", "rebiases");
    for (int s = 0; s < count; s++) {
        double ratios[64];
        for (int r = 0; r < rounds; r++) ratios[r] = bias[s][r] / cas[s][r];
        double mr = median(ratios, rounds);
        double mc = median(cas[s], rounds), mb = median(bias[s], rounds);
        printf("%-12s %10.2f %10.2f %7.3f", scenarios[s].name, mc, mb, mr);
        if (scenarios[s].scenario == 2)
            printf(" %14.0f %14.0f", median(casFirst[s], rounds), median(biasFirst[s], rounds));
        else printf(" %14s %14s", "-", "-");
        printf(" %12.1f %10.1f\n", (double)revocations[s] / rounds, (double)rebiases[s] / rounds);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "node")) return nodeMain(atoi(argv[2]), atol(argv[3]));
    if (argc == 4 && !strcmp(argv[1], "node-lone")) return nodeLoneMain(!strcmp(argv[2], "bias"), atol(argv[3]));
    if (argc != 4) {
        fprintf(stderr, "usage: %s faa|cas|xchg|cs|csp|fs|cf|ff|fc|hc|ha THREADS N\n       %s node ROUNDS VALUES\n", argv[0], argv[0]);
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
