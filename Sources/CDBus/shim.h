#ifndef TICKERD_CDBUS_SHIM_H
#define TICKERD_CDBUS_SHIM_H

#include <dbus/dbus.h>

/* libdbus spells its type codes as macros over character literals, which Swift does not import.
 * Re-declare them as constants so Swift code can use them by name. */
static const int CDBUS_TYPE_INVALID = DBUS_TYPE_INVALID;
static const int CDBUS_TYPE_BYTE = DBUS_TYPE_BYTE;
static const int CDBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int CDBUS_TYPE_INT16 = DBUS_TYPE_INT16;
static const int CDBUS_TYPE_UINT16 = DBUS_TYPE_UINT16;
static const int CDBUS_TYPE_INT32 = DBUS_TYPE_INT32;
static const int CDBUS_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int CDBUS_TYPE_INT64 = DBUS_TYPE_INT64;
static const int CDBUS_TYPE_UINT64 = DBUS_TYPE_UINT64;
static const int CDBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE;
static const int CDBUS_TYPE_STRING = DBUS_TYPE_STRING;
static const int CDBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int CDBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int CDBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD;
static const int CDBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int CDBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int CDBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT;
static const int CDBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;

static const int CDBUS_MESSAGE_TYPE_INVALID = DBUS_MESSAGE_TYPE_INVALID;
static const int CDBUS_MESSAGE_TYPE_METHOD_CALL = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int CDBUS_MESSAGE_TYPE_METHOD_RETURN = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int CDBUS_MESSAGE_TYPE_ERROR = DBUS_MESSAGE_TYPE_ERROR;
static const int CDBUS_MESSAGE_TYPE_SIGNAL = DBUS_MESSAGE_TYPE_SIGNAL;

static const unsigned int CDBUS_NAME_FLAG_ALLOW_REPLACEMENT = DBUS_NAME_FLAG_ALLOW_REPLACEMENT;
static const unsigned int CDBUS_NAME_FLAG_REPLACE_EXISTING = DBUS_NAME_FLAG_REPLACE_EXISTING;
static const unsigned int CDBUS_NAME_FLAG_DO_NOT_QUEUE = DBUS_NAME_FLAG_DO_NOT_QUEUE;
static const int CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER = DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;
static const int CDBUS_REQUEST_NAME_REPLY_IN_QUEUE = DBUS_REQUEST_NAME_REPLY_IN_QUEUE;
static const int CDBUS_REQUEST_NAME_REPLY_EXISTS = DBUS_REQUEST_NAME_REPLY_EXISTS;
static const int CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER = DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER;

static const int CDBUS_TIMEOUT_USE_DEFAULT = DBUS_TIMEOUT_USE_DEFAULT;
static const int CDBUS_TIMEOUT_INFINITE = DBUS_TIMEOUT_INFINITE;

static const unsigned int CDBUS_WATCH_READABLE = DBUS_WATCH_READABLE;
static const unsigned int CDBUS_WATCH_WRITABLE = DBUS_WATCH_WRITABLE;
static const unsigned int CDBUS_WATCH_ERROR = DBUS_WATCH_ERROR;
static const unsigned int CDBUS_WATCH_HANGUP = DBUS_WATCH_HANGUP;

/* ---------------------------------------------------------------------------------------------
 * Linux event primitives for the DBus event loop (Sources/DBus/EventLoop*.swift).
 * Swift's Glibc module does not import epoll, timerfd, signalfd, eventfd or gettid, and
 * `struct epoll_event` is packed on x86-64, so the loop reaches them through these small helpers.
 * Every helper returns what the underlying call returns (-1 and errno on failure).
 * ------------------------------------------------------------------------------------------- */
#ifdef __linux__
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

static const uint32_t CDBUS_EPOLLIN = EPOLLIN;
static const uint32_t CDBUS_EPOLLOUT = EPOLLOUT;
static const uint32_t CDBUS_EPOLLERR = EPOLLERR;
static const uint32_t CDBUS_EPOLLHUP = EPOLLHUP;

/** A close-on-exec epoll instance. */
static inline int cdbus_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/** Adds (op 1), modifies (op 3) or deletes (op 2) `fd` with the given event mask and 64-bit tag. */
static inline int cdbus_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t tag) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = tag;
    int cop = op == 1 ? EPOLL_CTL_ADD : (op == 2 ? EPOLL_CTL_DEL : EPOLL_CTL_MOD);
    return epoll_ctl(epfd, cop, fd, &ev);
}

/** Waits for at most `max` (<= 64) events; writes their tags and masks into the two arrays. */
static inline int cdbus_epoll_wait(int epfd, uint64_t *tags, uint32_t *masks, int max, int timeout_ms) {
    struct epoll_event evs[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) { tags[i] = evs[i].data.u64; masks[i] = evs[i].events; }
    return n;
}

/** A non-blocking, close-on-exec timerfd on CLOCK_MONOTONIC (`realtime` 0) or CLOCK_REALTIME (1). */
static inline int cdbus_timerfd_create(int realtime) {
    return timerfd_create(realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

/** Arms `fd` one-shot at the absolute time (sec, nsec) of its clock; (0, 0) disarms it.
 *  `cancel_on_set` adds TFD_TIMER_CANCEL_ON_SET (realtime timers: reads fail with ECANCELED when
 *  the wall clock is set discontinuously). */
static inline int cdbus_timerfd_arm(int fd, int64_t sec, int64_t nsec, int cancel_on_set) {
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)sec;
    its.it_value.tv_nsec = (long)nsec;
    int flags = TFD_TIMER_ABSTIME | (cancel_on_set ? TFD_TIMER_CANCEL_ON_SET : 0);
    return timerfd_settime(fd, flags, &its, NULL);
}

/** Reads a timerfd: 0 when it expired, 1 when the wall clock jumped (ECANCELED), -1 otherwise
 *  (EAGAIN: nothing to read). */
static inline int cdbus_timerfd_read(int fd) {
    uint64_t count = 0;
    ssize_t n = read(fd, &count, sizeof count);
    if (n == (ssize_t)sizeof count) return 0;
    if (n < 0 && errno == ECANCELED) return 1;
    return -1;
}

/** A non-blocking, close-on-exec eventfd used to wake the loop from other threads. */
static inline int cdbus_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/** Adds one to an eventfd (wakes its reader). */
static inline int cdbus_eventfd_signal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof one) == (ssize_t)sizeof one ? 0 : -1;
}

/** Drains an eventfd: one read takes its whole count (a write after it makes it readable again). */
static inline void cdbus_eventfd_drain(int fd) {
    uint64_t value;
    (void)read(fd, &value, sizeof value);
}

/** Creates (fd -1) or updates a non-blocking, close-on-exec signalfd for `signals`. */
static inline int cdbus_signalfd(int fd, const sigset_t *signals) {
    return signalfd(fd, signals, SFD_CLOEXEC | SFD_NONBLOCK);
}

/** Reads one signal from a signalfd: its number, or -1 when none is pending. */
static inline int cdbus_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    return n == (ssize_t)sizeof info ? (int)info.ssi_signo : -1;
}

/** The kernel thread id of the calling thread (as in /proc/self/task/TID). */
static inline int cdbus_gettid(void) { return (int)syscall(SYS_gettid); }

/** Current time of CLOCK_MONOTONIC (`realtime` 0) or CLOCK_REALTIME (1) in nanoseconds. */
static inline int64_t cdbus_clock_now_ns(int realtime) {
    struct timespec ts;
    clock_gettime(realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}
#endif

#endif
