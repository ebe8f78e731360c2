#!/usr/bin/env bash
# Regenerates linker/tickerd.order: the functions a running tickerd executes (start-up with a
# configuration, journal replay, Posts, Removes, subscribers and frames, idle), which the release
# link puts next to each other (lld --symbol-ordering-file, Package.swift).
#
# Why: the kernel maps 64 KiB around every code page fault (fault-around), so the ~0.8 MB of
# code the daemon runs, scattered over a 16 MB .text, kept ~8 MB of it resident. Packed together
# (as far as sections allow: Swift puts each public function in its own, the rest of a file in
# one; the standard library's 1.5 MB core is one section) they keep ~4 MB fewer
# (docs/benchmarks.md, "Memory").
#
# Run it after changes that rename or add functions on those paths; a stale list only costs
# memory (names it lacks are left where the linker puts them), never correctness.
# Needs valgrind (callgrind); takes about two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# The list must not shape the binary it is taken from (names are the same either way, but a
# fresh list should come from a plain link): build with an empty list.
: > linker/tickerd.order
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
rm -f "$bin/tickerd"   # SwiftPM does not see the list as an input: make it link again
swift build -c release --static-swift-stdlib --product tickerd
swift build -c release --static-swift-stdlib --product tickerd-bench

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/tickerd" "$bin/tickerd"   # callgrind cannot read the DWARF 5 lld writes
cat > "$work/wrap.sh" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/cg.%p.out $work/tickerd "\$@"
EOF
chmod +x "$work/wrap.sh"
"$bin/tickerd-bench" --window 2 --load-window 2 --posts 200 --frame-clients 4 --starts 1 --scheduled 200 \
    --tickerd "$work/wrap.sh" > "$work/bench.txt"

python3 - "$work" "$bin/tickerd" > linker/tickerd.order <<'EOF'
import glob, os, re, subprocess, sys
work, binary = sys.argv[1], sys.argv[2]
# Names defined once only: a local helper with the same name in many objects (value witnesses,
# merged thunks) would pull every object's whole section — some of them 400 KB — into the list.
count = {}
for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split(None, 2)
    if len(parts) == 3:
        count[parts[2]] = count.get(parts[2], 0) + (1 if parts[1] in "tTwW" else 2)
defined = {name for name, times in count.items() if times == 1}
seen, order = set(), []
# Every daemon the bench started, the longest-running first; names in the order callgrind met them.
for path in sorted(glob.glob(os.path.join(work, "cg.*.out")), key=os.path.getsize, reverse=True):
    for line in open(path, errors="replace"):
        match = re.match(r"c?fn=\(\d+\)\s+(\S+)", line)
        if match and match.group(1) in defined and match.group(1) not in seen:
            seen.add(match.group(1))
            order.append(match.group(1))
print("\n".join(order))
EOF
echo "linker/tickerd.order: $(wc -l < linker/tickerd.order) functions"
rm -f "$bin/tickerd"
swift build -c release --static-swift-stdlib --product tickerd
