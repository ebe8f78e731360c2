"""Cells of a frame's text as the daemon counts them, for the panel tests' screenshot readers.

The clusters of a text and the cells each takes, by the daemon's rule (DESIGN §4 "Cells") and its
own tables (Sources/TickerModel/Width/WidthTables.swift, read at import), so that a reader puts
every cluster where `Render` does: emoji of the BMP and with U+FE0F, flags and modifiers included.
Clusters are split as contrib/js/timeline.js splits them (no grapheme library here).
"""
import bisect
import os
import re


def width_table(name):
    """A cell-width table of the daemon (Sources/TickerModel/Width/WidthTables.swift): [(lo, hi)]."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Sources', 'TickerModel', 'Width',
                        'WidthTables.swift')
    with open(path, encoding='utf-8') as f:
        body = re.search(r'static let ' + name + r': \[UInt32\] = \[(.*?)\]', f.read(), re.S).group(1)
    values = [int(v, 16) for v in re.findall(r'0x[0-9A-Fa-f]+', body)]
    return list(zip(values[::2], values[1::2]))


WIDE = width_table('wide')
ZERO_WIDTH = width_table('zeroWidth')


def in_table(table, c):
    index = bisect.bisect_right(table, (c, 0x10FFFF)) - 1
    return index >= 0 and table[index][0] <= c <= table[index][1]


def cluster_cells(cluster):
    """The cells of a cluster by the daemon's rule (DESIGN §4 "Cells")."""
    base, indicators = None, 0
    for char in cluster:
        c = ord(char)
        if c == 0xfe0f:
            return 0 if base is None else 2
        indicators += 0x1f1e6 <= c <= 0x1f1ff
        if base is None and not in_table(ZERO_WIDTH, c):
            base = c
    if base is None:
        return 0
    return 2 if indicators >= 2 or in_table(WIDE, base) else 1


def cells(text):
    """The clusters of a frame's text with their cells: [(first cell, cluster, cells)]. A code point
    joins the cluster before it when it takes no cell, is a variation selector, an emoji modifier,
    a zero-width joiner or follows one, or completes a flag; cells as the daemon counts them (its
    tables)."""
    out = []
    cell = 0
    join_next = False
    indicators = 0
    for char in text:
        c = ord(char)
        indicator = 0x1f1e6 <= c <= 0x1f1ff
        extends = 0xfe00 <= c <= 0xfe0f or c == 0x200d or 0x1f3fb <= c <= 0x1f3ff or in_table(ZERO_WIDTH, c)
        if out and (extends or join_next or (indicator and indicators % 2 == 1)):
            first, cluster, _ = out[-1]
            out[-1] = (first, cluster + char, cluster_cells(cluster + char))
        else:
            out.append((cell, char, cluster_cells(char)))
        cell = out[-1][0] + out[-1][2]
        indicators = indicators + 1 if indicator else 0
        join_next = c == 0x200d
    return out
