#!/usr/bin/env python3
"""Copy the daemon's cell-width tables into contrib/js/timeline.js (the pixel clients' frames).

Usage: scripts/gen-timeline-width.py [--check]

Reads the `wide` and `zeroWidth` tables of Sources/TickerModel/Width/WidthTables.swift (generated
from the Unicode data by scripts/gen-width-tables.py) and writes them, as the same flattened
inclusive ranges, between the `BEGIN WIDTH TABLES` and `END WIDTH TABLES` lines of
contrib/js/timeline.js, so that the JavaScript counts a cluster's cells as `Render` does. With
--check nothing is written: exits 1 when timeline.js holds other tables than the Swift file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.path.join(ROOT, 'Sources', 'TickerModel', 'Width', 'WidthTables.swift')
JS = os.path.join(ROOT, 'contrib', 'js', 'timeline.js')
BEGIN = '// BEGIN WIDTH TABLES'
END = '// END WIDTH TABLES'


def table(swift, name):
    body = re.search(r'static let ' + name + r': \[UInt32\] = \[(.*?)\]', swift, re.S).group(1)
    return [int(value, 16) for value in re.findall(r'0x[0-9A-Fa-f]+', body)]


def emit(name, values):
    lines = [f'var {name} = [']
    for i in range(0, len(values), 8):
        lines.append('    ' + ' '.join(f'0x{v:05x},' for v in values[i:i + 8]))
    lines.append('];')
    return lines


def main():
    with open(SWIFT, encoding='utf-8') as f:
        swift = f.read()
    block = [BEGIN + ' (scripts/gen-timeline-width.py copies them from WidthTables.swift; do not edit)',
             '// Inclusive code-point ranges flattened as [lo, hi, lo, hi, ...]: East_Asian_Width W or F, or',
             '// Emoji_Presentation (a base scalar that makes its cluster 2 cells), and General_Category Mn,',
             '// Me, Cf and the conjoining Hangul vowels and finals (scalars that take no cell).']
    block += emit('WIDE_RANGES', table(swift, 'wide')) + emit('ZERO_WIDTH_RANGES', table(swift, 'zeroWidth')) + [END]
    with open(JS, encoding='utf-8') as f:
        lines = f.read().split('\n')
    first = next(i for i, line in enumerate(lines) if line.startswith(BEGIN))
    last = next(i for i, line in enumerate(lines) if line.startswith(END))
    updated = '\n'.join(lines[:first] + block + lines[last + 1:])
    current = '\n'.join(lines)
    if '--check' in sys.argv[1:]:
        if updated != current:
            print(f'{JS} does not hold the tables of {SWIFT}: run scripts/gen-timeline-width.py', file=sys.stderr)
            return 1
        return 0
    if updated != current:
        with open(JS, 'w', encoding='utf-8') as f:
            f.write(updated)
    return 0


if __name__ == '__main__':
    sys.exit(main())
