/* Can a durable journal write overlap with the work a change does after it (building its
 * signals)? Times one 2,500-byte record (a Post's) into zeros written ahead, followed by `work`
 * microseconds of CPU, three ways:
 *   0: pwrite on an O_DSYNC descriptor, then the work (what tickerd does);
 *   1: pwrite, sync_file_range(WRITE) to start the writeback, the work, then fdatasync;
 *   2: pwrite, the work, then fdatasync.
 * Build and run (docs/benchmarks.md, "Overlapping the record's write"):
 *   cc -O2 -o /tmp/dwo scripts/durable-write-overlap.c && /tmp/dwo /var/tmp/dwo.file 150
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void spin(double us) {
    double start = now_us();
    while (now_us() - start < us) {}
}

enum { samples = 1500, record = 2500 };

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE WORK_US\n", argv[0]);
        return 64;
    }
    static double times[samples];
    static char bytes[record];
    memset(bytes, 'x', sizeof bytes);
    double work = atof(argv[2]);
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
    char *zeros = calloc(1, 4 << 20);
    if (fd < 0 || !zeros || write(fd, zeros, 4 << 20) != 4 << 20 || fsync(fd) != 0) {
        perror(argv[1]);
        return 1;
    }
    close(fd);
    static const char *names[] = {"O_DSYNC pwrite, then work", "pwrite + sync_file_range, work, fdatasync",
                                  "pwrite, work, fdatasync"};
    for (int mode = 0; mode < 3; mode++) {
        fd = open(argv[1], mode == 0 ? O_RDWR | O_DSYNC : O_RDWR);
        for (int i = 0; i < samples; i++) {
            usleep(400); /* the daemon sleeps between changes too */
            off_t offset = (off_t)i * record;
            double start = now_us();
            if (pwrite(fd, bytes, record, offset) != record) return 1;
            if (mode == 1) sync_file_range(fd, offset, record, SYNC_FILE_RANGE_WRITE);
            spin(work);
            if (mode != 0 && fdatasync(fd) != 0) return 1;
            times[i] = now_us() - start;
        }
        qsort(times, samples, sizeof times[0], compare);
        printf("%-42s work %4.0f us: p10 %4.0f  p50 %4.0f  p90 %4.0f us\n", names[mode], work,
               times[samples / 10], times[samples / 2], times[samples * 9 / 10]);
        close(fd);
    }
    unlink(argv[1]);
    return 0;
}
