// The floor of the single-thread delivery path: a C model of the work the lock-free delivery
// variant must do per value on one thread, run by `bench` as the `floor` subject in the same
// launches and shuffled rounds as the library, so every report can say how far Signals is
// from what the machine allows (the ×floor column).
//
// What it models, per value (`floor_send`), in the order the library does it:
//   1. the input's status check (one relaxed load: is the node active, not ended);
//   2. the claim: the thread's token (the thread pointer, one register read, as the library's
//      `currentThreadToken`), a relaxed load of the claim word, then a CAS 0 -> token;
//   3. the output's gate (the node's `open` flag, one relaxed load);
//   4. the map stages, each an opaque call through a function pointer (a Swift closure is one
//      indirect call), then the terminal's gate (one relaxed load), which the library keeps
//      after the transform so that a cancel made inside the transform still stops the value;
//   5. the handler, an opaque call through a function pointer with a context (a closure and
//      its captures);
//   6. the drain of the holder-only ring of re-entrant values (a handler that sends into its
//      own input from inside a delivery: the value is queued, not delivered recursively, and
//      delivered after the handler returns), with the library's drain budget counted per
//      element (every 1,024 the claim word is read, as a holder offering hand-over does);
//   7. the release: a CAS token -> 0 (a CAS, not a store: the library's release must see the
//      "queued since" bit a concurrent sender sets).
// A re-entrant send (the claim word already holds this thread's token) checks that the
// shared queue is empty (one load of its tail against the holder's head, as the library
// does so a re-entrant value cannot overtake a queued one) and appends to the ring.
// Fan-out is one claim per send and, per subscriber, its branch's gate and its handler.
//
// What it leaves out, and why a floor may: the library's type-erasure and generic
// abstraction (closure contexts, reabstraction thunks, a stage's own sink closure between
// fused stages, `Result` and `Optional` wrapping), reference counting, the exclusivity checks
// Swift would add, and the second node a multicast puts behind its input (the model claims
// once per send: the library claims the input's node and the multicast's node). These are
// costs of how the library is written, not of what it must do: what remains between the two
// figures is what a better implementation could remove. The model does NOT model contention:
// a send that finds the node held by another thread spins until it is free (out of line,
// `floor_send_contended`) instead of queueing its value, so the floor subject runs only the
// single-thread workloads (send, send-map, chain, fanout, reentrant alone).
//
// The send path is inline here (always inlined), as the library's `@inlinable` hot path is
// inlined into the harness's send loop; the map, the handler and node creation are out of line in
// DeliveryFloor.c, so nothing the compiler sees lets it fold a call away.
#ifndef SIGNALS_DELIVERY_FLOOR_H
#define SIGNALS_DELIVERY_FLOOR_H

#include <stdint.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A map stage: an opaque transform of one value.
typedef intptr_t (*floor_map_fn)(intptr_t value);
/// A handler: receives one delivered value with its context.
typedef void (*floor_handler_fn)(void *context, intptr_t value);

/// One subscriber of a fan-out node: its gate, its handler and the handler's context.
typedef struct floor_branch {
    uint32_t open;
    floor_handler_fn handler;
    void *context;
} floor_branch;

/// One node of the model (allocated on a 64-byte boundary). The claim word and the shared
/// queue's tail each have a cache line of their own, as in the library (other threads write
/// them); the rest is read on every value and written only when the graph is built, or by the
/// holder alone. Padded by hand: Swift does not import an over-aligned record
/// (DeliveryFloor.c checks the offsets).
typedef struct floor_node {
    /// 0 idle, else the holder's token (three low bits clear, as the library's).
    uintptr_t claim;
    uintptr_t padAfterClaim[7];
    /// 1 while the input accepts values; 0 once ended (`floor_node_close`).
    uint32_t status;
    /// The output's gate (single-output node).
    uint32_t outputOpen;
    /// The terminal's gate after the map stages.
    uint32_t terminalOpen;
    /// Map stages before the terminal; 0 delivers straight to the handler.
    int32_t stageCount;
    floor_map_fn *stages;
    /// The single output's handler (when `branchCount` is 0).
    floor_handler_fn handler;
    void *context;
    /// Fan-out: the subscribers, each with its gate; 0 for a single output.
    int32_t branchCount;
    floor_branch *branches;
    /// Holder-only: the ring of re-entrant values (a power-of-two capacity), the shared
    /// queue's head, and the drain budget's count.
    intptr_t *own;
    uintptr_t ownHead, ownTail, ownMask;
    uintptr_t head;
    uintptr_t drained;
    /// Sends that found the node held by another thread (`floor_send_contended`).
    uintptr_t contendedSends;
    uintptr_t padBeforeTail[2];
    /// The shared queue's tail, which producers write: empty while it equals `head`.
    uintptr_t tail;
    uintptr_t padAfterTail[7];
} floor_node;

/// How many values a holder drains between two looks at the claim word (the library's
/// `drainBudgetBeforeHandoff`).
#define FLOOR_DRAIN_BUDGET 1024

/// A node with `stageCount` map stages, each `map`, delivering to one handler (`branchCount`
/// 0, set with `floor_node_set_handler`) or to `branchCount` subscribers (set each with
/// `floor_node_set_branch`; `stageCount` must then be 0). Returns NULL when out of memory or
/// given a negative count.
floor_node *floor_node_create(int32_t stageCount, floor_map_fn map, int32_t branchCount);
/// Sets the single output's handler.
void floor_node_set_handler(floor_node *node, floor_handler_fn handler, void *context);
/// Sets subscriber `index`'s handler and opens its gate.
void floor_node_set_branch(floor_node *node, int32_t index, floor_handler_fn handler, void *context);
/// Ends the input: later sends return 0.
void floor_node_close(floor_node *node);
void floor_node_destroy(floor_node *node);

/// The map every stage of the `floor` subject runs: `value + 1`, out of line.
intptr_t floor_add_one(intptr_t value);

/// A sink that escapes (its address is handed out), so what the handler adds is observable.
typedef struct floor_sum {
    intptr_t count;
    intptr_t sum;
} floor_sum;
/// Adds `value` to the `floor_sum` at `context`.
void floor_sum_handler(void *context, intptr_t value);

/// A re-entrant handler: adds each value to `sink`, then, while the value is below `depth`,
/// sends value + 1 into `node` from inside the delivery.
typedef struct floor_resend {
    floor_node *node;
    intptr_t depth;
    floor_sum sink;
} floor_resend;
/// The re-entrant handler; `context` is a `floor_resend`.
void floor_resend_handler(void *context, intptr_t value);

/// Out of line: the node held by another thread (spins, then claims), and the ring full.
int floor_send_contended(floor_node *node, intptr_t value, uintptr_t token);
void floor_own_grow(floor_node *node);

/// This thread's token: its thread pointer (x86_64 Linux: %fs:0; arm64 Linux: tpidr_el0),
/// else `pthread_self`, with the three low bits clear, as the library's `currentThreadToken`.
static inline uintptr_t floor_thread_token(void) {
#if defined(__linux__) && defined(__x86_64__)
    uintptr_t p;
    __asm__ volatile("movq %%fs:0, %0" : "=r"(p));
    return p & ~(uintptr_t)7;
#elif defined(__linux__) && defined(__aarch64__)
    uintptr_t p;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(p));
    return p & ~(uintptr_t)7;
#else
    return (uintptr_t)pthread_self() & ~(uintptr_t)7;
#endif
}

/// One delivery by the holder: the gates, the map stages, the handler (or every subscriber's).
static inline __attribute__((always_inline)) void floor_deliver(floor_node *n, intptr_t v) {
    int32_t branches = n->branchCount;
    if (branches == 0) {
        if (!__atomic_load_n(&n->outputOpen, __ATOMIC_RELAXED)) return;
        int32_t stages = n->stageCount;
        if (stages > 0) {
            for (int32_t i = 0; i < stages; i++) v = n->stages[i](v);
            if (!__atomic_load_n(&n->terminalOpen, __ATOMIC_RELAXED)) return;
        }
        n->handler(n->context, v);
    } else {
        floor_branch *b = n->branches;
        for (int32_t i = 0; i < branches; i++) {
            if (__atomic_load_n(&b[i].open, __ATOMIC_RELAXED)) b[i].handler(b[i].context, v);
        }
    }
}

/// Sends `value`: 1 when accepted, 0 when the input has ended. On the thread holding the node
/// (a handler sending into its own input) the value is queued and delivered after the
/// handler returns.
static inline __attribute__((always_inline)) int floor_send(floor_node *n, intptr_t v) {
    if (__builtin_expect(__atomic_load_n(&n->status, __ATOMIC_RELAXED) != 1, 0)) return 0;
    uintptr_t token = floor_thread_token();
    uintptr_t word = __atomic_load_n(&n->claim, __ATOMIC_RELAXED);
    if (__builtin_expect(word == 0, 1)) {
        uintptr_t expected = 0;
        if (__builtin_expect(__atomic_compare_exchange_n(&n->claim, &expected, token, 0,
                                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
            floor_deliver(n, v);
            // The re-entrant values queued meanwhile, in order, each counted against the
            // drain budget.
            while (__builtin_expect(n->ownHead != n->ownTail, 0)) {
                intptr_t next = n->own[n->ownHead & n->ownMask];
                n->ownHead++;
                if (__builtin_expect(++n->drained == FLOOR_DRAIN_BUDGET, 0)) {
                    n->drained = 0;
                    (void)__atomic_load_n(&n->claim, __ATOMIC_RELAXED);
                }
                floor_deliver(n, next);
            }
            expected = token;
            __atomic_compare_exchange_n(&n->claim, &expected, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            return 1;
        }
    } else if (word == token && n->head >= __atomic_load_n(&n->tail, __ATOMIC_SEQ_CST)) {
        if (__builtin_expect(n->ownTail - n->ownHead > n->ownMask, 0)) floor_own_grow(n);
        n->own[n->ownTail & n->ownMask] = v;
        n->ownTail++;
        return 1;
    }
    return floor_send_contended(n, v, token);
}

#ifdef __cplusplus
}
#endif

#endif
