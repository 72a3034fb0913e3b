// The floor subject's model (Sources/DeliveryFloor) alone, with a summing handler and nothing
// of the harness, for counting its instructions per value under callgrind the way
// scripts/instruction-counts counts the library's: two runs at two value counts, the
// difference of their totals over the difference of the counts (start-up cancels out).
//
//   cc -O2 -I Sources/DeliveryFloor/include -o floor-lone scripts/floor-lone.c Sources/DeliveryFloor/DeliveryFloor.c
//   ./floor-lone send|send-map|chain|fanout|reentrant VALUES
//   valgrind --tool=callgrind ./floor-lone send-map 100000   (and 200000)
//
// chain is 10 stages and fanout 100 subscribers (VALUES sends, VALUES x 100 deliveries), as
// in the instruction-count cases. Prints the values delivered and their sum, so the work is
// observable, and exits 1 if the sum is not the one expected.
#include "DeliveryFloor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s send|send-map|chain|fanout|reentrant VALUES\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    long values = atol(argv[2]);
    if (values < 1) { fprintf(stderr, "VALUES must be a positive count, got '%s'\n", argv[2]); return 2; }
    long count = 0, sum = 0, expectedCount = values, expectedSum = values * (values - 1) / 2;
    if (!strcmp(mode, "send") || !strcmp(mode, "send-map") || !strcmp(mode, "chain")) {
        int stages = !strcmp(mode, "send") ? 0 : !strcmp(mode, "send-map") ? 1 : 10;
        floor_node *n = floor_node_create(stages, floor_add_one, 0);
        floor_sum s = {0, 0};
        floor_node_set_handler(n, floor_sum_handler, &s);
        for (long i = 0; i < values; i++) floor_send(n, i);
        count = s.count; sum = s.sum;
        expectedSum += values * stages;
        floor_node_destroy(n);
    } else if (!strcmp(mode, "fanout")) {
        enum { subscribers = 100 };
        floor_node *n = floor_node_create(0, floor_add_one, subscribers);
        floor_sum s[subscribers];
        memset(s, 0, sizeof s);
        for (int i = 0; i < subscribers; i++) floor_node_set_branch(n, i, floor_sum_handler, &s[i]);
        for (long i = 0; i < values; i++) floor_send(n, i);
        for (int i = 0; i < subscribers; i++) { count += s[i].count; sum += s[i].sum; }
        expectedCount *= subscribers; expectedSum *= subscribers;
        floor_node_destroy(n);
    } else if (!strcmp(mode, "reentrant")) {
        floor_node *n = floor_node_create(0, floor_add_one, 0);
        floor_resend r = {n, values - 1, {0, 0}};
        floor_node_set_handler(n, floor_resend_handler, &r);
        floor_send(n, 0);
        count = r.sink.count; sum = r.sink.sum;
        floor_node_destroy(n);
    } else {
        fprintf(stderr, "unknown mode '%s': expected send, send-map, chain, fanout or reentrant\n", mode);
        return 2;
    }
    printf("%s: %ld values delivered, sum %ld\n", mode, count, sum);
    return count == expectedCount && sum == expectedSum ? 0 : 1;
}
