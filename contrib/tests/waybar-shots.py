#!/usr/bin/env python3
"""Measures waybar screenshots (binary PPM strips of the bar) for contrib/tests/waybar-test.sh.

  box SHOT                    prints the module box "left width" (exit 1: no module on the bar)
  width DIR ARTIFACTS         every shot of DIR/index has the same box width
  speed DIR CELLS_PER_S CELL_PX ARTIFACTS
                              the text's shift over the shots, fitted against their instants,
                              is CELLS_PER_S × CELL_PX pixels a second (±2 %)

  learn DIR LEARNED -- RENDER...
                              for each shot, the frame Render gives at its instant (RENDER with the
                              instant appended prints busctl's JSON) and the shot's text profile:
                              what each frame looks like in waybar's own font, kept in LEARNED
  phase DIR LEARNED ARTIFACTS -- RENDER...
                              every shot whose frame (Render at its instant, or one step before
                              or after: the shot's instant is known to a few ms) was learned shows
                              that frame's profile: the text is where the daemon says

  same SHOT SHOT               both shots show the module with the same text pixels
  sample LEARNED              prints a learned frame with no space at either end
  matches SHOT LEARNED TEXT   the shot shows what the learned frame TEXT looked like
  distinct DIR                prints how many different text pictures the shots show

The module's background is #102030 (the test's style), the bar's #000000.
"""
import os
import sys

from ppm_shots import keep, read_ppm

MODULE = (0x10, 0x20, 0x30)


def pixel(image, x, y):
    width, _, pixels = image
    offset = 3 * (y * width + x)
    return tuple(pixels[offset:offset + 3])


def box(image):
    """The module's left edge and width: the columns holding its background colour."""
    width, height, _ = image
    columns = [x for x in range(width) if any(pixel(image, x, y) == MODULE for y in range(height))]
    if not columns:
        return None
    return columns[0], columns[-1] - columns[0] + 1


def profile(image, left, width):
    """Ink per column inside the box: how far each pixel is from the module's background."""
    _, height, _ = image
    return [sum(sum(abs(c - m) for c, m in zip(pixel(image, x, y), MODULE)) for y in range(height))
            for x in range(left, left + width)]


def shots(directory):
    with open(os.path.join(directory, "index")) as f:
        for line in f:
            name, at, _ = line.split()
            yield name, int(at), read_ppm(os.path.join(directory, name + ".ppm"))


def durations(directory):
    """How long grim ran for each shot (µs): the uncertainty of its instant."""
    with open(os.path.join(directory, "index")) as f:
        return {line.split()[0]: int(line.split()[2]) for line in f}


def check_width(directory, artifacts):
    widths = {}
    first = None
    for name, _, image in shots(directory):
        found = box(image)
        if found is None:
            keep(directory, [name], artifacts)
            print(f"shot {name}: the module is missing", file=sys.stderr)
            return 1
        widths.setdefault(found[1], []).append(name)
        first = first or name
    if len(widths) != 1:
        summary = ", ".join(f"{w} px in {len(n)} shots (first {n[0]})" for w, n in sorted(widths.items()))
        odd = [names[0] for names in widths.values()]
        keep(directory, odd, artifacts)
        print(f"the module's width changes: {summary}", file=sys.stderr)
        return 1
    (width, names), = widths.items()
    print(f"width {width} px in all {len(names)} shots")
    return 0


def best_shift(a, b, step, limit):
    """The shift s (pixels, a multiple of `step`: a text panel moves by whole cells) with
    b[x] ≈ a[x + s]: how far the text moved left from a to b; 0 when the two are the same."""
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
    expected = cells_per_second * cell_px
    times, positions = [], []
    previous = None
    travelled = 0
    names = []
    log = open(os.path.join(artifacts, "speed.txt"), "w")
    for name, at, image in shots(directory):
        found = box(image)
        if found is None:
            keep(directory, [name], artifacts)
            print(f"shot {name}: the module is missing", file=sys.stderr)
            return 1
        # The text area: the box less its 8 px padding at each side.
        current = profile(image, found[0] + 8, found[1] - 16)
        if previous is not None:
            shift, error = best_shift(previous, current, cell_px, 6 * cell_px)
            log.write(f"{name} {at} shift {shift} error {error:.1f} total {travelled + shift}\n")
            travelled += shift
        previous = current
        times.append(at / 1e6)
        positions.append(travelled)
        names.append(name)
    n = len(times)
    mean_t = sum(times) / n
    mean_p = sum(positions) / n
    slope = sum((t - mean_t) * (p - mean_p) for t, p in zip(times, positions)) / \
        sum((t - mean_t) ** 2 for t in times)
    print(f"speed {slope:.2f} px/s over {n} shots, {times[-1] - times[0]:.1f} s (Timeline: {expected:.2f})")
    if abs(slope - expected) > 0.02 * expected:
        keep(directory, [names[0], names[-1]], artifacts)
        print(f"the text moves at {slope:.2f} px/s, the Timeline says {expected:.2f} (±2 %)", file=sys.stderr)
        return 1
    return 0


def render_text(command, at):
    import json
    import subprocess
    output = subprocess.run(command + [str(at)], check=True, capture_output=True, text=True).stdout
    return json.loads(output)["data"][0]


def text_profile(image):
    found = box(image)
    if found is None:
        return None
    return profile(image, found[0] + 8, found[1] - 16)


def profile_difference(a, b):
    """Where two column profiles differ: how many columns, the first one and the largest change."""
    columns = [x for x, (p, q) in enumerate(zip(a, b)) if p != q]
    if not columns:
        return "the same"
    return (f"{len(columns)} columns differ from column {columns[0]}, by up to "
            f"{max(abs(a[x] - b[x]) for x in columns)}")


def learn(directory, learned_path, command):
    """Learns how each frame looks: for each text Render gives, the look most of its shots have
    (a shot taken while waybar redrew can look like neither frame, and must not define one)."""
    import json
    from collections import Counter
    seen = {}  # text -> Counter of column profiles (as tuples)
    took = durations(directory)
    for index, (name, at, image) in enumerate(shots(directory)):
        if index % 2 or took[name] > 40_000:
            continue  # every other shot is enough to see every frame; a slow shot's instant is vague
        current = text_profile(image)
        if current is None:
            continue
        # Only shots well inside a step: the same frame 40 ms before and after (the text moves
        # one way, so it is the frame at the shot's instant too).
        texts = {render_text(command, at + delta) for delta in (-40_000, 40_000)}
        if len(texts) == 1:
            seen.setdefault(texts.pop(), Counter())[tuple(current)] += 1
    learned = {text: list(looks.most_common(1)[0][0]) for text, looks in seen.items()}
    # Two texts of one look mean shots were named after frames they did not show (the Timeline
    # changed after they were taken); the phase check could not tell those frames apart.
    by_look = {}
    for text, look in learned.items():
        by_look.setdefault(tuple(look), []).append(text)
    shared = [texts for texts in by_look.values() if len(texts) > 1]
    if shared:
        print(f"learned one look for different frames: {shared[0]!r}", file=sys.stderr)
        return 1
    differing = sum(sum(looks.values()) - looks.most_common(1)[0][1] for looks in seen.values())
    json.dump(learned, open(learned_path, "w"))
    print(f"learned {len(learned)} frames; {differing} shots of them look other than most of their text's")
    return 0 if learned else 1


def check_phase(directory, learned_path, artifacts, command):
    import json
    learned = json.load(open(learned_path))
    checked = 0
    inexact = []  # shots whose nearest learned frame is not exactly their look
    took = durations(directory)
    for name, at, image in shots(directory):
        if took[name] > 40_000:
            continue  # the instant of a slow shot is too vague to name its frame
        current = text_profile(image)
        if current is None:
            keep(directory, [name], artifacts)
            print(f"shot {name}: the module is missing", file=sys.stderr)
            return 1
        texts = [render_text(command, at + delta) for delta in (-60_000, 0, 60_000)]
        known = [t for t in texts if t in learned]
        if len(known) < len(texts):
            continue  # a frame it may show was not learned
        checked += 1
        # The learned frame nearest to the shot (column profiles can differ by a few antialiased
        # pixels between two draws of one text) must be one Render gives around its instant.
        nearest = min(learned, key=lambda t: sum(abs(a - b) for a, b in zip(learned[t], current)))
        if learned[nearest] != current:
            inexact.append(f"{name}: {profile_difference(learned[nearest], current)}")
        if nearest not in known:
            keep(directory, [name], artifacts)
            shown = [nearest]
            print(f"shot {name}: the module does not show the frame Render gives at its instant "
                  f"({texts[1]!r}) but {shown[0] if shown else 'a frame never seen'!r}", file=sys.stderr)
            return 1
    print(f"phase: {checked} shots show the frame Render gives ({len(inexact)} of them not to the pixel"
          + (f": {inexact[:3]}" if inexact else "") + ")")
    return 0 if checked >= 5 else 1


def main(argv):
    if argv[1] == "box":
        found = box(read_ppm(argv[2]))
        if found is None:
            return 1
        print(*found)
        return 0
    if argv[1] == "width":
        return check_width(argv[2], argv[3])
    if argv[1] == "same":
        a, b = (text_profile(read_ppm(path)) for path in argv[2:4])
        return 0 if a is not None and a == b else 1
    if argv[1] == "sample":
        import json
        learned = json.load(open(argv[2]))
        print(next(t for t in sorted(learned) if t == t.strip() and len(t) == len(t.encode())))
        return 0
    if argv[1] == "matches":
        import json
        learned = json.load(open(argv[3]))
        return 0 if text_profile(read_ppm(argv[2])) == learned[argv[4]] else 1
    if argv[1] == "distinct":
        seen = {tuple(text_profile(image) or ()) for _, _, image in shots(argv[2])}
        print(len(seen))
        return 0
    if argv[1] == "learn":
        return learn(argv[2], argv[3], argv[argv.index("--") + 1:])
    if argv[1] == "phase":
        return check_phase(argv[2], argv[3], argv[4], argv[argv.index("--") + 1:])
    if argv[1] == "speed":
        return check_speed(argv[2], float(argv[3]), int(argv[4]), argv[5])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
