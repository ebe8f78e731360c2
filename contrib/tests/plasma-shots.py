#!/usr/bin/env python3
"""Reads the Plasma widget's screenshots against the daemon's Render (contrib/tests/plasma-test.sh).

Usage: plasma-shots.py SHOTS_DIR FONT_FILE CELL_PX X Y W H COLUMNS SPEED -- TICKERCTL...

SHOTS_DIR holds shot-NNN.png and times.txt (one line per shot: NNN and the wall-clock
microseconds just before and just after the screenshot). For each shot the daemon's frame at the
shot's instant (`TICKERCTL render --columns COLUMNS+1 --at @T --json`) is drawn in the same font
(a character it lacks in the font fontconfig falls back to; colour emoji are left out), one
cluster per cell of CELL_PX, shifted left by its offset; the text region (X Y W H) of the
shot must match it (column ink profile, normalised correlation ≥ MIN_MATCH: one copy of the
right text, nothing overlapping) within the screenshot's own timing uncertainty, and the residual
shift must not drift: the text moves at SPEED cells a second (±2%). With SPEED 0 the text must
stand still. Prints one line per shot and a verdict; exits 1 naming the first failing shot.

Usage: plasma-shots.py --edges SHOTS_DIR CELL_PX X Y W H COLUMNS SPEED -- TICKERCTL...

checks the wide characters (CJK, emoji) an edge of the widget cuts, in shots of a channel moving
left at SPEED cells a second: in every shot whose instant (from just before the shot, less the
display latency, to just after it) leaves no doubt that a wide character's first cell has left the
view while its second is at least EDGE_PX in view (left edge), or that only its first cell is in
view by that much (right edge), that part must look as the same glyph looks there in a shot where
it is wholly in view (within the placement the instant leaves open): ink, nearer that glyph than
a blank; at least EDGE_SHOTS shots per edge (exit 2 when fewer: more shots may do).
"""
import json
import os
import subprocess
import sys

import numpy
from PIL import Image, ImageDraw, ImageFont

from cells import cells

MIN_MATCH = 0.85
MOST_LATE = 0.2  # at most this share of shots may show a frame up to LATEST late (a starved CPU)
LATEST = 1.0
DISPLAY_LATENCY = 0.034  # s: a frame is on screen one or two display frames after it was computed
SCALE = 4  # the reference is drawn at 4× horizontal resolution for sub-pixel offsets
EDGE_PX = 3  # the least part of a cut wide character in view that --edges checks
EDGE_SHOTS = 2  # shots per edge --edges needs


FONTS = {}  # (font file, pixel size) -> ImageFont
FALLBACK = {}  # code point -> font file fontconfig picks for it after the widget's font


def font_for(cluster, font):
    """The font that draws `cluster` (its first code point) as Qt would: the widget's font when it
    has the glyph, else the one fontconfig falls back to. None for a colour emoji font (bitmaps
    of one size only: not drawn in the reference)."""
    c = ord(cluster[0])
    if c < 0x7f:
        return font
    if c not in FALLBACK:
        FALLBACK[c] = subprocess.run(["fc-match", "-f", "%{file}", "monospace:charset=%x" % c],
                                     capture_output=True, text=True).stdout
    path = FALLBACK[c]
    if not path or "Emoji" in path:
        return None
    if (path, font.size) not in FONTS:
        FONTS[(path, font.size)] = ImageFont.truetype(path, font.size)
    return FONTS[(path, font.size)]


def text_profile(text, font, cell):
    """Column ink profile, at SCALE× horizontal resolution, of `text` drawn one cluster per cell
    (a printable ASCII one at its cell, any other centred in its cells, in the font fontconfig
    gives it), as the widget lays it out."""
    image = Image.new("L", (int((len(text) * 2 + 2) * cell * SCALE), 64), 0)
    for k, cluster, w in cells(text):
        face = font_for(cluster, font)
        if w == 0 or cluster == " " or face is None:
            continue
        glyph = Image.new("L", (int(3 * cell) + 8, 64), 0)
        ImageDraw.Draw(glyph).text((4, 0), cluster, fill=255, font=face)
        glyph = glyph.resize((glyph.width * SCALE, 64))
        left = k * cell + ((w * cell - face.getlength(cluster)) / 2 if ord(cluster[0]) >= 0x7f else 0) - 4
        image.paste(glyph, (int(round(left * SCALE)), 0), glyph)
    return numpy.asarray(image, dtype=float).sum(axis=0)


def reference(full, offset, cell, width):
    """`width` px of a text profile shifted left by `offset` cells (right when negative)."""
    start = int(round(offset * cell * SCALE))
    if start < 0:
        prof = numpy.concatenate([numpy.zeros(-start), full])[:width * SCALE]
    else:
        prof = full[start:start + width * SCALE]
    prof = numpy.pad(prof, (0, max(0, width * SCALE - len(prof))))
    return prof.reshape(width, SCALE).sum(axis=1)


def profile(path, x, y, w, h):
    """Column ink profile of the text region of a screenshot (ink = distance from the background)."""
    gray = numpy.asarray(Image.open(path).convert("L").crop((x, y, x + w, y + h)), dtype=float)
    return numpy.abs(gray - numpy.median(gray)).sum(axis=0)


def smooth(prof, cell):
    """Blurred over about half a cell: anti-aliasing differs between Qt and the reference, the
    text's shape at cell scale does not."""
    k = max(3, int(round(cell / 2)) | 1)
    return numpy.convolve(prof, numpy.ones(k) / k, mode="same")


def correlation(a, b):
    a = a - a.mean()
    b = b - b.mean()
    d = numpy.linalg.norm(a) * numpy.linalg.norm(b)
    return float(a @ b / d) if d > 0 else (1.0 if numpy.linalg.norm(a) == numpy.linalg.norm(b) else 0.0)


def best_residual(shot, text, offset, font, cell, w, reach):
    """(residual px, correlation): how much further left than Render's frame the text is drawn."""
    full = text_profile(text, font, cell)
    best = (0.0, -2.0)
    for quarter in range(-int(reach * 4), int(reach * 4) + 1):
        r = quarter / 4
        c = correlation(shot, smooth(reference(full, offset + r / cell, cell, w), cell))
        if c > best[1]:
            best = (r, c)
    return best


def main():
    args = sys.argv[1:]
    split = args.index("--")
    shots_dir, font_file = args[0], args[1]
    cell = float(args[2])
    x, y, w, h, columns = (int(v) for v in args[3:8])
    speed = float(args[8])
    tickerctl = [a for a in args[split + 1:] if a != "--strict"]
    strict = "--strict" in args[split + 1:]  # no late frame allowed
    font = ImageFont.truetype(font_file, max(6, round(cell / 0.60205)))  # DejaVu Sans Mono: 0.602 em
    def render(t):
        # The widget's declared width (its columns and the cell partly in view): a wider Render
        # may see a pending change switch in view, which the daemon keeps out of declared views.
        out = subprocess.run(tickerctl + ["render", "--columns", str(columns + 1), "--at", "@%.6f" % (t / 1e6),
                                          "--json"], check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    rows = []
    late = []
    for line in open(os.path.join(shots_dir, "times.txt")):
        n, before, after = line.split()
        mid = (int(before) + int(after)) / 2
        frame = render(mid)
        text = frame["text"]
        shot = smooth(profile(os.path.join(shots_dir, "shot-%s.png" % n), x, y, w, h), cell)
        # The shot's own duration, two display frames of latency (60 Hz), and a pixel.
        reach = speed * cell * ((int(after) - int(before)) / 2e6 + DISPLAY_LATENCY) + 1.0
        r, match = best_residual(shot, text, frame["offset"], font, cell, w, reach)
        print("shot %s: t=%d frame=%r offset=%.3f residual=%.2fpx (allowed ±%.1f) match=%.3f"
              % (n, mid, text[:columns], frame["offset"], r, reach, match))
        with open(os.path.join(shots_dir, "frame-%s.txt" % n), "w") as f:
            f.write(text + "\n")
        if match < MIN_MATCH:
            # Text that changes every display frame (a counter counting): the frame on screen may
            # be one computed up to DISPLAY_LATENCY before the shot; that is on time.
            for lag in numpy.arange(0.004, DISPLAY_LATENCY + 0.001, 0.004):
                earlier = render(mid - lag * 1e6)
                r2, match2 = best_residual(shot, earlier["text"], earlier["offset"], font, cell, w, reach)
                if match2 >= MIN_MATCH:
                    print("shot %s: shows the frame of %.0f ms earlier (match %.3f), within the display latency"
                          % (n, lag * 1000, match2))
                    r, match = r2, match2
                    break
        if match >= MIN_MATCH:
            rows.append((n, mid, r, match, reach))
            continue
        if strict:
            sys.exit("FAIL: shot %s does not show the frame of its instant" % n)
        # Not the frame of its instant: a frame shown late (the display starved), or a wrong one.
        for lag in numpy.arange(DISPLAY_LATENCY + 0.033, LATEST, 0.033):
            earlier = render(mid - lag * 1e6)
            r2, match2 = best_residual(shot, earlier["text"], earlier["offset"], font, cell, w, reach)
            if match2 >= MIN_MATCH:
                print("shot %s: shows the frame of %.0f ms earlier (match %.3f)" % (n, lag * 1000, match2))
                late.append(n)
                break
        else:
            sys.exit("FAIL: shot %s matches Render's frame only %.3f (< %.2f), nor one of the last %.0f s:"
                     " wrong or overlapping text" % (n, match, MIN_MATCH, LATEST))
    if len(late) > MOST_LATE * (len(rows) + len(late)):
        sys.exit("FAIL: %d of %d shots show a late frame" % (len(late), len(rows) + len(late)))
    times = numpy.array([row[1] for row in rows]) / 1e6
    residuals = numpy.array([row[2] for row in rows])
    drift = numpy.polyfit(times, residuals, 1)[0] if len(rows) > 2 else 0.0
    span = times[-1] - times[0]
    if speed == 0:
        if residuals.max() - residuals.min() > 0.5:
            sys.exit("FAIL: the text moved %.1f px while it should stand still" % (residuals.max() - residuals.min()))
        print("still: the text stood still over %.1f s, matching Render (worst %.3f)"
              % (span, min(r[3] for r in rows)))
        return
    expected = speed * cell
    print("speed: %.2f px/s expected, %.2f px/s measured over %.1f s; worst match %.3f; %d late of %d"
          % (expected, expected + drift, span, min(r[3] for r in rows), len(late), len(rows) + len(late)))
    if span < 3:
        print("(phase only: %.1f s is too short to measure the speed to 2%%)" % span)
        return
    if abs(drift) > 0.02 * expected:
        sys.exit("FAIL: the text moves at %.2f px/s, the Timeline says %.2f (±2%%)" % (expected + drift, expected))


def clusters_at(text):
    """[(first cell, cluster, cells)] of a frame's text, as the daemon counts cells."""
    return cells(text)


def edges_main(args):
    split = args.index("--")
    shots_dir = args[0]
    cell = float(args[1])
    x, y, w, h, columns = (int(v) for v in args[2:7])
    speed = float(args[7])
    tickerctl = args[split + 1:]
    cell_time = round(1e6 / speed)
    cache = {}

    def render(t, extra=2):
        if (t, extra) not in cache:
            out = subprocess.run(tickerctl + ["render", "--columns", str(columns + extra), "--at", "@%.6f" % (t / 1e6),
                                              "--json"], check=True, capture_output=True, text=True).stdout
            frame = json.loads(out)
            cache[(t, extra)] = (frame["text"], frame["offset"])
        return cache[(t, extra)]

    def cut_left(t):
        """The wide cluster whose second cell is column 0 at `t` (one cell of motion earlier it is
        the first, the cells after it those of the frame at `t`), or None."""
        text, offset = render(t)
        now = clusters_at(text)
        if not now or now[0][1] != " ":
            return None
        earlier, earlier_offset = render(t - cell_time)
        before = clusters_at(earlier)
        follows = [(k - 1, c, n) for k, c, n in before if 2 <= k <= columns] == \
            [(k, c, n) for k, c, n in now if 1 <= k < columns]
        return before[0][1] if before and before[0][2] == 2 and follows and abs(earlier_offset - offset) < 0.01 else None

    glyphs = {}  # cluster -> (pixels around it, x of its first cell in them)
    skipped = {"moved on a cell": 0, "left, too little in view": 0, "right, too little in view": 0,
               "left, no glyph ink there": 0, "right, no glyph ink there": 0}
    shots = 0
    halves = []  # (edge, cluster, pixels of the part surely in view, x of them in its cells, slack px, shot)
    for line in open(os.path.join(shots_dir, "times.txt")):
        n, before, after = line.split()
        shots += 1
        t0, t1 = int(before) - round(DISPLAY_LATENCY * 1e6), int(after)
        (text, off0), (text1, off1) = render(t0), render(t1)
        if text != text1 or off1 < off0:
            skipped["moved on a cell"] += 1
            continue  # the frame moved on a cell within the shot's window: no sure placement
        gray = numpy.asarray(Image.open(os.path.join(shots_dir, "shot-%s.png" % n)).convert("L"), dtype=float)
        band = gray[y:y + h]
        slack = (off1 - off0) * cell / 2 + 1
        middle = (off0 + off1) / 2
        for k, cluster, n_cells in clusters_at(text):
            left = x + (k - middle) * cell
            # Wholly in view all through the shot's window: its look, kept from its first such shot.
            if n_cells == 2 and cluster not in glyphs and k - off1 >= 0 and (k - off0 + 2) * cell <= w:
                lo, hi = int(numpy.floor(left - slack)) - 4, int(numpy.ceil(left + 2 * cell + slack)) + 4
                glyphs[cluster] = (band[:, lo:hi].copy(), left - lo)
        cuts = []
        left_cluster = cut_left(t0) if text.startswith(" ") else None
        if left_cluster is not None and cut_left(t1) == left_cluster:
            # Its second cell, column 0, is in view from the widget's edge to its end at the latest.
            cuts.append(("left", left_cluster, -1, x, x + (1 - off1) * cell))
        right = [c for k, c, n_cells in clusters_at(text) if k == columns and n_cells == 2]
        if right:
            # Its first cell is in view from where it starts at the earliest to the widget's edge.
            cuts.append(("right", right[0], columns, x + (columns - off0) * cell, x + w))
        for edge, cluster, k, start, end in cuts:
            a, b = int(numpy.ceil(start)), int(numpy.floor(end))
            if b - a >= EDGE_PX:
                halves.append((edge, cluster, band[:, a:b].copy(), a - (x + (k - middle) * cell), slack, n))
            else:
                skipped[edge + ", too little in view"] += 1
    checked = {"left": [], "right": []}
    wrong = {"left": [], "right": []}
    for edge, cluster, part, at, slack, n in halves:
        if cluster not in glyphs:
            continue
        whole, first = glyphs[cluster]
        background = numpy.median(numpy.concatenate([whole[:, :2], whole[:, -2:]]))
        best = None
        reach = int(numpy.ceil(2 * slack)) + 1
        for d in range(-reach, reach + 1):
            start = int(round(first + at)) + d
            if start < 0 or start + part.shape[1] > whole.shape[1]:
                continue
            expected = whole[:, start:start + part.shape[1]]
            difference = numpy.abs(part - expected).mean()
            if best is None or difference < best[0]:
                best = (difference, expected)
        if best is None or numpy.abs(best[1] - background).max() < 16:
            skipped[edge + ", no glyph ink there"] += 1
            continue
        checked[edge].append(n)
        # The widget's text may be dim on its background (a few grey levels, rendered at fractional
        # positions): the part must hold ink (half the glyph's strongest there) and be nearer the
        # glyph than a blank is.
        inked = numpy.abs(part - background).max() > 0.5 * numpy.abs(best[1] - background).max()
        blank = numpy.abs(part - background).mean()
        print("shot %s: %r cut by the %s edge, %d px in view: %s, differs from its glyph by %.1f grey levels,"
              " from a blank by %.1f" % (n, cluster, edge, part.shape[1], "ink" if inked else "blank", best[0], blank))
        if not inked or best[0] >= blank:
            wrong[edge].append("shot %s: %r %s in the %d px in view" % (n, cluster, "blank" if not inked else
                                                                          "unlike its glyph", part.shape[1]))
    print("edges: wide characters cut by the left edge in %d shots, by the right edge in %d (of %d shots;"
          " not checked: %s)" % (len(checked["left"]), len(checked["right"]), shots, skipped))
    if wrong["left"] or wrong["right"]:
        sys.exit("FAIL: wide characters cut by an edge not drawn: %d of %d at the left (%s), %d of %d at the right (%s)"
                 % (len(wrong["left"]), len(checked["left"]), "; ".join(wrong["left"][:2]),
                    len(wrong["right"]), len(checked["right"]), "; ".join(wrong["right"][:2])))
    if min(len(v) for v in checked.values()) < EDGE_SHOTS:
        print("FAIL: too few shots show a wide character cut by an edge for sure: %s" % checked)
        sys.exit(2)  # more shots may do


if __name__ == "__main__":
    if sys.argv[1:2] == ["--edges"]:
        edges_main(sys.argv[2:])
    else:
        main()
