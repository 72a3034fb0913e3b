// The floor of the single-thread delivery path (the `floor` subject of `bench`): the out-of-
// line half of the model in include/DeliveryFloor.h, which says exactly what it models per
// value and what it leaves out. In short: the input's status check, the claim (CAS 0 -> the
// thread's token), the output's gate, the map stages as opaque calls, the terminal's gate,
// the handler as an opaque call, the drain of re-entrant values queued on the holder's ring,
// and the release (CAS token -> 0); for fan-out one claim per send and a gate and a handler
// per subscriber. Left out: the library's closure contexts, thunks, reference counting and
// second node behind a multicast (costs of how it is written, not of what it must do), and
// contention (a sender that finds the node held spins here instead of queueing).
//
// Everything a value passes through that the compiler could fold is here, out of line: the
// map and the handlers are reached only through pointers stored in a heap node by
// `floor_node_create` and the setters, and the handlers write sinks whose addresses escape.
#include "DeliveryFloor.h"

#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// The cache lines the header's padding promises: the claim word alone on the first, the
// fields read per value from the second, the shared queue's tail alone on its own.
_Static_assert(offsetof(floor_node, status) == 64, "the claim word has a line of its own");
_Static_assert(offsetof(floor_node, tail) % 64 == 0 && offsetof(floor_node, tail) > offsetof(floor_node, contendedSends),
               "the tail starts a line of its own");
_Static_assert(sizeof(floor_node) % 64 == 0 && sizeof(floor_node) - offsetof(floor_node, tail) == 64,
               "the tail's line holds nothing else");

enum { initialRingCapacity = 64 };

floor_node *floor_node_create(int32_t stageCount, floor_map_fn map, int32_t branchCount) {
    if (stageCount < 0 || branchCount < 0 || (branchCount > 0 && stageCount > 0)) return NULL;
    floor_node *n = aligned_alloc(64, sizeof(floor_node));
    if (!n) return NULL;
    memset(n, 0, sizeof *n);
    n->status = 1;
    n->outputOpen = 1;
    n->terminalOpen = 1;
    n->stageCount = stageCount;
    n->stages = calloc((size_t)(stageCount > 0 ? stageCount : 1), sizeof(floor_map_fn));
    n->branchCount = branchCount;
    n->branches = calloc((size_t)(branchCount > 0 ? branchCount : 1), sizeof(floor_branch));
    n->own = malloc(initialRingCapacity * sizeof(intptr_t));
    n->ownMask = initialRingCapacity - 1;
    if (!n->stages || !n->branches || !n->own) {
        floor_node_destroy(n);
        return NULL;
    }
    for (int32_t i = 0; i < stageCount; i++) n->stages[i] = map;
    return n;
}

void floor_node_set_handler(floor_node *node, floor_handler_fn handler, void *context) {
    node->handler = handler;
    node->context = context;
}

void floor_node_set_branch(floor_node *node, int32_t index, floor_handler_fn handler, void *context) {
    if (index < 0 || index >= node->branchCount) return;
    node->branches[index].handler = handler;
    node->branches[index].context = context;
    __atomic_store_n(&node->branches[index].open, 1, __ATOMIC_RELEASE);
}

void floor_node_close(floor_node *node) { __atomic_store_n(&node->status, 0, __ATOMIC_SEQ_CST); }

void floor_node_destroy(floor_node *node) {
    if (!node) return;
    free(node->stages);
    free(node->branches);
    free(node->own);
    free(node);
}

// noinline and in this file: what the compiler cannot see through, as a Swift closure is
// reached through a context it cannot see through at the call site.
__attribute__((noinline)) intptr_t floor_add_one(intptr_t value) { return value + 1; }

__attribute__((noinline)) void floor_sum_handler(void *context, intptr_t value) {
    floor_sum *s = context;
    s->count += 1;
    s->sum += value;
}

__attribute__((noinline)) void floor_resend_handler(void *context, intptr_t value) {
    floor_resend *r = context;
    r->sink.count += 1;
    r->sink.sum += value;
    if (value < r->depth) floor_send(r->node, value + 1);
}

// Not on the path of any workload the floor subject runs (each has one thread): a sender
// that finds the node held by another thread spins until it is idle, yielding now and then,
// and sends again. The library instead queues the value and returns.
int floor_send_contended(floor_node *node, intptr_t value, uintptr_t token) {
    (void)token;
    __atomic_fetch_add(&node->contendedSends, 1, __ATOMIC_RELAXED);
    long spins = 0;
    while (__atomic_load_n(&node->claim, __ATOMIC_RELAXED) != 0) {
        if (++spins % 64 == 0) sched_yield();
    }
    return floor_send(node, value);
}

// The ring is full: double it, keeping the values in order.
void floor_own_grow(floor_node *node) {
    uintptr_t capacity = node->ownMask + 1, count = node->ownTail - node->ownHead;
    intptr_t *bigger = malloc(2 * capacity * sizeof(intptr_t));
    if (!bigger) abort();
    for (uintptr_t i = 0; i < count; i++) bigger[i] = node->own[(node->ownHead + i) & node->ownMask];
    free(node->own);
    node->own = bigger;
    node->ownMask = 2 * capacity - 1;
    node->ownHead = 0;
    node->ownTail = count;
}
