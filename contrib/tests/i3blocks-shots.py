#!/usr/bin/env python3
"""Measures swaybar screenshots (binary PPM strips of the bar) for contrib/tests/i3blocks-test.sh.

The bar's background is black (#000000) and i3blocks draws no background of its own: the block is where
the ink is. Its text area is the span of columns holding ink in any shot of a run (the block is
left-aligned in a fixed minimum width, so the span stays put while the text scrolls).

  ink SHOT                    prints the first and last column with ink (exit 1: a blank bar)
  speed DIR CELLS_PER_S CELL_PX ARTIFACTS
                              the text's shift over the shots, fitted against their instants,
                              is CELLS_PER_S × CELL_PX pixels a second (±2 %), and the shots show
                              more than one picture
  learn DIR LEARNED CELL_PX -- RENDER...
                              for each shot well inside a step, the frame Render gives at its
                              instant (RENDER with the instant appended prints busctl's JSON) and
                              the shot's text profile: each frame's look (most of its shots',
                              two at least),
                              kept in LEARNED with the text area; no two frames look alike, and
                              each frame's ink starts in the cell of its first visible character
                              and ends in that of its last (no character lost, none added: a
                              text of single-cell characters)
  phase DIR LEARNED ARTIFACTS -- RENDER...
                              every shot whose frame (Render at its instant, or one step before or
                              after: the instant is known to a few ms) was learned looks like that
                              frame and like no other learned frame more
"""
import json
import os
import subprocess
import sys

from ppm_shots import keep, read_ppm
from collections import Counter


def column_ink(image):
    """Per column, how far its pixels are from the bar's black background (0: no ink): the sum of
    their channels."""
    width, _, pixels = image
    stride = 3 * width
    return [sum(pixels[3 * x::stride]) + sum(pixels[3 * x + 1::stride]) + sum(pixels[3 * x + 2::stride])
            for x in range(width)]


def ink_span(image):
    ink = column_ink(image)
    columns = [x for x, value in enumerate(ink) if value]
    return (columns[0], columns[-1]) if columns else None


def shots(directory):
    with open(os.path.join(directory, "index")) as f:
        for line in f:
            name, at, took = line.split()
            yield name, int(at), int(took), read_ppm(os.path.join(directory, name + ".ppm"))


def text_area(directory):
    """The span of columns with ink in any shot; None if a shot is blank (with its name)."""
    left, right = None, None
    for name, _, _, image in shots(directory):
        span = ink_span(image)
        if span is None:
            return None, name
        left = span[0] if left is None else min(left, span[0])
        right = span[1] if right is None else max(right, span[1])
    return (left, right - left + 1), None


def profile(image, area):
    left, width = area
    return column_ink(image)[left:left + width]


def best_shift(a, b, step, limit):
    """The shift s (a multiple of `step`: text moves by whole cells) with b[x] ≈ a[x + s]."""
    if a == b:
        return 0, 0.0
    best, best_error = 0, None
    for s in range(step, limit, step):
        overlap = len(a) - s
        if overlap < len(a) // 2:
            break
        error = sum(abs(a[x + s] - b[x]) for x in range(overlap)) / overlap
        if best_error is None or error < best_error:
            best, best_error = s, error
    return best, best_error


def check_speed(directory, cells_per_second, cell_px, artifacts):
    """The text's speed: the shift between consecutive shots (at most a few cells apart), summed
    along runs of shots, fitted against the shots' instants with one slope for all runs. A run
    ends where the machine stalled (grim slow, or shots far apart): a shift of more cells than
    best_shift looks for would be missed."""
    expected = cells_per_second * cell_px
    area, blank = text_area(directory)
    if area is None:
        keep(directory, [blank], artifacts)
        print(f"shot {blank}: the block is missing", file=sys.stderr)
        return 1
    limit_cells = 6
    longest_gap = (limit_cells - 2) / cells_per_second  # seconds between shots a shift is sure within
    runs, names, pictures = [], [], set()
    previous, previous_at, travelled = None, None, 0
    with open(os.path.join(artifacts, "speed.txt"), "w") as log:
        for name, at, took, image in shots(directory):
            current = profile(image, area)
            pictures.add(tuple(current))
            names.append(name)
            if took > 100_000 or previous_at is None or (at - previous_at) / 1e6 > longest_gap:
                log.write(f"{name} {at} starts a run (grim took {took} µs)\n")
                runs.append([])
                travelled = 0
            else:
                shift, error = best_shift(previous, current, cell_px, limit_cells * cell_px)
                travelled += shift
                log.write(f"{name} {at} shift {shift} error {error:.1f} total {travelled}\n")
            runs[-1].append((at / 1e6, travelled))
            previous, previous_at = current, at
    covariance = variance = 0.0
    for run in runs:
        mean_t = sum(t for t, _ in run) / len(run)
        mean_p = sum(p for _, p in run) / len(run)
        covariance += sum((t - mean_t) * (p - mean_p) for t, p in run)
        variance += sum((t - mean_t) ** 2 for t, _ in run)
    slope = covariance / variance
    print(f"speed {slope:.2f} px/s over {len(names)} shots in {len(runs)} runs, {len(pictures)} pictures "
          f"(Timeline: {expected:.2f}); text area {area[1]} px from x={area[0]}")
    if len(pictures) < 2:
        keep(directory, [names[0]], artifacts)
        print(f"the text never changes over {len(names)} shots", file=sys.stderr)
        return 1
    if abs(slope - expected) > 0.02 * expected:
        keep(directory, [names[0], names[-1]], artifacts)
        print(f"the text moves at {slope:.2f} px/s, the Timeline says {expected:.2f} (±2 %)", file=sys.stderr)
        return 1
    return 0


def render_text(command, at):
    output = subprocess.run(command + [str(at)], check=True, capture_output=True, text=True).stdout
    return json.loads(output)["data"][0]


# Where a glyph's ink lies in its cell (pixels from the cell's left edge, DejaVu Sans Mono at 8 px
# a cell, antialiased edges included): its first inked column and its last (a glyph may spill a
# pixel or two into the next cell). A character lost or added moves an end by a whole cell.
FIRST_INK = range(0, 6)
LAST_INK = range(3, 12)


def check_extent(learned, cell_px):
    """Each frame's ink spans the cells from its first visible character to its last."""
    extents = {}
    for text, look in learned.items():
        inked = [x for x, value in enumerate(look) if value]
        visible = [c for c, character in enumerate(text) if not character.isspace()]
        if inked and visible:
            extents[text] = (inked[0], inked[-1], visible[0], visible[-1])
    # Where cell 0 starts: the leftmost that the frames' first characters allow.
    origin = min(first - cell_px * start for first, _, start, _ in extents.values())
    for text, (first, last, start, end) in extents.items():
        if (first - origin - cell_px * start not in FIRST_INK
                or last - origin - cell_px * end not in LAST_INK):
            print(f"the frame {text!r} shows ink from x={first} to x={last} of the text area, not in "
                  f"cells {start} to {end} ({cell_px} px each from x={origin})", file=sys.stderr)
            return False
    return True


def learn(directory, learned_path, cell_px, command):
    """Each frame's look: for each text Render gives, the look most of its shots have (a shot
    taken while the bar redrew can look like neither frame, and must not define one)."""
    area, blank = text_area(directory)
    if area is None:
        print(f"shot {blank}: the block is missing", file=sys.stderr)
        return 1
    seen = {}
    for name, at, took, image in shots(directory):
        if took > 40_000:
            continue  # a slow shot's instant is vague
        # Only shots well inside a step: the same frame 30 ms before and after.
        texts = {render_text(command, at + delta) for delta in (-30_000, 30_000)}
        if len(texts) == 1:
            seen.setdefault(texts.pop(), Counter())[tuple(profile(image, area))] += 1
    # A look is learned from at least two shots that are most of the frame's: a shot of a bar
    # that redrew late on a busy machine must not define a frame.
    learned = {}
    for text, looks in seen.items():
        look, votes = looks.most_common(1)[0]
        if votes >= 2 and 2 * votes > sum(looks.values()):
            learned[text] = list(look)
    looks = Counter(tuple(look) for look in learned.values())
    if any(count > 1 for count in looks.values()):
        print("two different frames were learned with one look", file=sys.stderr)
        return 1
    if not check_extent(learned, cell_px):
        return 1
    differing = sum(sum(c.values()) - c.most_common(1)[0][1] for c in seen.values())
    with open(learned_path, "w") as f:
        json.dump({"area": area, "frames": learned}, f)
    print(f"learned {len(learned)} frames; {differing} shots of them look other than most of their text's")
    return 0 if len(learned) >= 5 else 1


def check_phase(directory, learned_path, artifacts, command):
    with open(learned_path) as f:
        stored = json.load(f)
    area, learned = stored["area"], stored["frames"]
    checked, inexact = 0, []
    for name, at, took, image in shots(directory):
        if took > 40_000:
            continue  # the instant of a slow shot is too vague to name its frame
        current = profile(image, area)
        texts = [render_text(command, at + delta) for delta in (-60_000, 0, 60_000)]
        if not all(t in learned for t in texts):
            continue  # a frame it may show was not learned
        checked += 1
        nearest = min(learned, key=lambda t: sum(abs(a - b) for a, b in zip(learned[t], current)))
        if learned[nearest] != current:
            inexact.append(name)
        if nearest not in texts:
            keep(directory, [name], artifacts)
            print(f"shot {name}: the block does not show the frame Render gives at its instant "
                  f"({texts[1]!r}) but {nearest!r}", file=sys.stderr)
            return 1
    print(f"phase: {checked} shots show the frame Render gives ({len(inexact)} of them not to the pixel)")
    return 0 if checked >= 5 else 1


def main(argv):
    if len(argv) > 2 and argv[1] == "ink":
        span = ink_span(read_ppm(argv[2]))
        if span is None:
            return 1
        print(*span)
        return 0
    if len(argv) > 5 and argv[1] == "speed":
        return check_speed(argv[2], float(argv[3]), int(argv[4]), argv[5])
    if "--" in argv and argv[1] == "learn":
        return learn(argv[2], argv[3], int(argv[4]), argv[argv.index("--") + 1:])
    if "--" in argv and argv[1] == "phase":
        return check_phase(argv[2], argv[3], argv[4], argv[argv.index("--") + 1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
