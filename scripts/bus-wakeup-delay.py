#!/usr/bin/env python3
"""How long dbus-daemon takes to read what tickerd sent: MessageStarted signals (160-165 bytes on
the wire) and Peer.Ping replies (40 bytes), from a system-wide `perf trace` of a bench run.

    perf trace -a -o /tmp/bus.trace -e sendmsg,recvmsg,pwrite64,epoll_wait,write &
    .build/x86_64-unknown-linux-gnu/release/tickerd-bench --window 1 --load-window 1 \\
        --posts 300 --frame-clients 2 --starts 1 --scheduled 10
    kill -INT %1; scripts/bus-wakeup-delay.py /tmp/bus.trace

The daemon is the process that writes a Post's journal record (a pwrite of 2-3 kB); each of its
sends is matched with dbus-daemon's next successful recvmsg (docs/benchmarks.md, "2026-11-25").
"""
import re
import sys

LINE = re.compile(r'^\s*([\d.]+) \(\s*([\d.]*)\s*ms\): (\S+)/(\d+) (\w+)\(.*?\)\s+= (-?\d+)')


def main(path):
    events = []
    for line in open(path, errors="replace"):
        match = LINE.match(line)
        if match:
            events.append((float(match[1]), float(match[2] or 0), match[3], int(match[4]), match[5], int(match[6])))
    events.sort()
    daemon = next((e[3] for e in events if e[4] == "pwrite64" and 2000 < e[5] < 3000), None)
    if daemon is None:
        sys.exit("no journal record write in the trace")
    for name, low, high in [("MessageStarted (160-165 B)", 158, 166), ("Ping reply (40 B)", 40, 40)]:
        delays = []
        for index, event in enumerate(events):
            if event[3] == daemon and event[4] == "sendmsg" and low <= event[5] <= high:
                sent = event[0] + event[1]
                for later in events[index + 1:]:
                    if later[2] == "dbus-daemon" and later[4] == "recvmsg" and later[5] > 0:
                        delays.append((later[0] - sent) * 1000)
                        break
        delays.sort()
        if delays:
            print("%-28s n=%d  p10 %.0f  p50 %.0f  p90 %.0f us" % (
                name, len(delays), delays[len(delays) // 10], delays[len(delays) // 2], delays[len(delays) * 9 // 10]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bus.trace")
