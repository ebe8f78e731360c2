/* Can a second thread take the journal's durable write while the loop builds the signals?
 * Times, alternated and 2 ms apart, one 4 KiB O_DIRECT | O_DSYNC block into zeros written ahead:
 *   direct:      pwrite on this thread (what tickerd does);
 *   direct+work: pwrite, then WORK microseconds of CPU (the signals built after the write);
 *   thread+work: a writer thread woken by a futex does the pwrite while this thread does the
 *                WORK, then waits on a futex for the write.
 * PIN=N puts the writer on CPU N and this thread on the other (2 CPUs).
 * Build: cc -O2 -o /tmp/dwt scripts/durable-write-thread.c -lpthread
 * Run:   /tmp/dwt COUNT FILE WORK_US     e.g. /tmp/dwt 500 .build/dwt.dat 65   (FILE is 64 MiB)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd;
static char *block;
static long offset;
static _Atomic int requested, done;

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static void futex_wait(_Atomic int *word, int value) { syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, 0, 0, 0); }
static void futex_wake(_Atomic int *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0); }
static void spin_for(double us) { double end = now_us() + us; while (now_us() < end) {} }
static void write_block(void) { if (pwrite(fd, block, 4096, offset) != 4096) { perror("pwrite"); exit(1); } }

static void *writer(void *unused) {
    (void)unused;
    int seen = 0;
    for (;;) {
        while (atomic_load(&requested) == seen) futex_wait(&requested, seen);
        seen = atomic_load(&requested);
        write_block();
        atomic_store(&done, seen);
        futex_wake(&done);
    }
    return 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s COUNT FILE WORK_US\n", argv[0]); return 2; }
    int count = atoi(argv[1]);
    double work = atof(argv[3]);
    fd = open(argv[2], O_RDWR | O_CREAT | O_DIRECT | O_DSYNC, 0644);
    if (fd < 0) { perror("open"); return 1; }
    char *zeros;
    if (posix_memalign((void **)&block, 4096, 4096) || posix_memalign((void **)&zeros, 4096, 1 << 20)) return 1;
    memset(block, 'x', 4096);
    memset(zeros, 0, 1 << 20);
    for (int i = 0; i < 64; i++)
        if (pwrite(fd, zeros, 1 << 20, (long)i << 20) != 1 << 20) { perror("pwrite"); return 1; }
    pthread_t thread;
    pthread_create(&thread, 0, writer, 0);
    if (getenv("PIN")) {
        int cpu = atoi(getenv("PIN"));
        cpu_set_t set;
        CPU_ZERO(&set); CPU_SET(cpu, &set); pthread_setaffinity_np(thread, sizeof set, &set);
        CPU_ZERO(&set); CPU_SET(1 - cpu, &set); pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    double *direct = malloc(count * sizeof *direct), *then = malloc(count * sizeof *then),
           *overlap = malloc(count * sizeof *overlap);
    struct timespec gap = {0, 2000000};
    int sequence = 0;
    for (int i = 0; i < count; i++) {
        offset = (i % 16000) * 4096L;
        nanosleep(&gap, 0);
        double t0 = now_us();
        write_block();
        direct[i] = now_us() - t0;

        nanosleep(&gap, 0);
        t0 = now_us();
        write_block();
        spin_for(work);
        then[i] = now_us() - t0;

        nanosleep(&gap, 0);
        t0 = now_us();
        atomic_store(&requested, ++sequence);
        futex_wake(&requested);
        spin_for(work);
        int seen;
        while ((seen = atomic_load(&done)) != sequence) futex_wait(&done, seen);
        overlap[i] = now_us() - t0;
    }
    qsort(direct, count, sizeof *direct, compare);
    qsort(then, count, sizeof *then, compare);
    qsort(overlap, count, sizeof *overlap, compare);
    printf("p50 µs: direct %.0f | direct+work %.0f | thread+work %.0f (work %.0f µs, %d each)\n",
           direct[count / 2], then[count / 2], overlap[count / 2], work, count);
    return 0;
}
