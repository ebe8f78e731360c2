#!/usr/bin/python3
"""The checks of contrib/tests/gnome-shell-test.sh, run inside its dbus-run-session.

With gnome-shell (and the tickerd extension) on the session bus, this drives tickerd with tickerctl
and checks what a user sees, through screenshots of the top bar (org.gnome.Shell.Screenshot, which
answers only the owner of org.gnome.Screenshot — this process owns it):

* cost while nothing moves: gnome-shell's CPU time and wake-ups (voluntary context switches of its
  threads, from /proc) with the extension enabled equal those with it disabled, within noise, at
  start-up with nothing to show, with a still text, and once the channel is emptied;
* over one whole cycle of a scrolling tape with a counting field and jumping dots, read cell by cell
  (the clip's place and the cell width come from the test-only helper extension): every shot is a
  frame of the daemon's Render at an instant within the shot's call window — no cell inked where
  Render has a space (two overlapping copies would), every glyph present, a CJK or emoji glyph's
  ink centred in its two cells (fallback fonts draw them narrower or wider), a raised dot high and a
  resting dot low, the counter's digits where Render puts them; the item's width and the rest of
  the bar never change; every letter and digit sits on the line it usually does (a taller
  fallback font coming into view moves nothing up or down); a CJK or emoji glyph cut by either
  edge of the item (its first cell gone past the left edge, or only its first cell partly in at the
  right) shows its part in view as that glyph looks there wholly in view, not blank (at least 2
  shots per edge, 3 px or more in view); the text moves at the Timeline's
  speed (±2%: the positions the shots
  show, fitted against the instants they were taken); raised dots seen; digits change and every
  digit cell looks like the digit Render shows there;
* across a daemon restart (SIGTERM, a new tickerd on the same bus and state): every shot, those
  taken while the bus name has no owner included, shows Render's frame (the extension keeps the
  text for its 2 s grace: none blank) and the rest of the bar does not move; after it the shots
  match Render again (the phase is right).

The gnome-shell scrolling cost is printed (ms/s of CPU, with the extension and disabled) for
docs/benchmarks.md. Exits 1 naming the failing check and frame; shots stay in --artifacts.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import gi
import numpy as np

gi.require_version('GdkPixbuf', '2.0')
from gi.repository import GdkPixbuf, Gio, GLib  # noqa: E402

from cells import cells  # noqa: E402

TICKER = 'io.github.tickerd.Ticker1'
CHANNEL_PATHS = '/io/github/tickerd/Ticker1/channel/'
CHANNEL = 'io.github.tickerd.Ticker1.Channel'
HELPER = 'io.github.tickerd.ShellTestHelper'
INK = 96  # grey level above which a pixel is ink (white text on the black bar)
SPEED = 8.0
EDGE_SHOTS = 2  # shots of a wide character cut by each edge, at the least
DIGIT_SAMPLES = 4  # cells a digit must be seen in before its look is compared (see digits_read)
EDGE_PX = 3  # the least part of a cut wide character in view that is checked
GRACE_S = 2.0  # the extension keeps the text this long after the daemon's name goes (docs/DESIGN.md)


class Failure(Exception):
    pass


def now_us():
    return time.clock_gettime_ns(time.CLOCK_REALTIME) // 1000


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while True:
        try:
            result = condition()
        except GLib.Error:
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise Failure(f'timed out waiting for {what}')
        time.sleep(0.05)


class Probe:
    def __init__(self, args):
        self.args = args
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.bus = Gio.DBusConnection.new_for_address_sync(args.bus, flags, None, None)
        reply = self.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
                          GLib.Variant('(su)', ('org.gnome.Screenshot', 4)))
        if reply[0] != 1:
            raise Failure('could not own org.gnome.Screenshot')
        self.tickerd = None
        self.shots = 0
        # The channel the item shows (the extension's `channel` setting), whose Render shots match.
        self.channel = 'main'

    def call(self, name, path, iface, method, args=None, timeout=20000):
        return self.bus.call_sync(name, path, iface, method, args, None, Gio.DBusCallFlags.NONE, timeout, None).unpack()

    # tickerd

    def spawn_tickerd(self):
        """Starts tickerd on the bus with the state directory of the run, without waiting for it."""
        log = open(os.path.join(self.args.work, 'tickerd.log'), 'a')
        self.tickerd = subprocess.Popen(
            [os.path.join(self.args.bin, 'tickerd'), '--bus', self.args.bus, '--state-dir',
             os.path.join(self.args.work, 'state'), '--config', os.path.join(self.args.work, 'tickerd.toml')],
            stdout=log, stderr=log)

    def start_tickerd(self):
        self.spawn_tickerd()
        wait_for(lambda: self.ctl('status', check=False).returncode == 0, 30, 'tickerd to serve the bus')

    def name_owned(self):
        """Whether tickerd's bus name has an owner now."""
        return self.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                         GLib.Variant('(s)', (TICKER,)))[0]

    def stop_tickerd(self):
        self.tickerd.terminate()
        self.tickerd.wait(30)

    def ctl(self, *args, check=True):
        return subprocess.run([os.path.join(self.args.bin, 'tickerctl'), '--bus', self.args.bus, *args],
                              check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def render(self, columns, at):
        return self.call(TICKER, CHANNEL_PATHS + self.channel, CHANNEL, 'Render', GLib.Variant('(ux)', (columns, at)))

    def timeline(self):
        return self.call(TICKER, CHANNEL_PATHS + self.channel, 'org.freedesktop.DBus.Properties', 'Get',
                         GLib.Variant('(ss)', (CHANNEL, 'Timeline')))[0]

    # the Shell

    def extension(self, enabled):
        method = 'EnableExtension' if enabled else 'DisableExtension'
        self.call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell.Extensions', method,
                  GLib.Variant('(s)', (self.args.uuid,)))
        info = lambda: self.call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell.Extensions',
                                 'GetExtensionInfo', GLib.Variant('(s)', (self.args.uuid,)))[0]
        wait_for(lambda: info().get('state') == (1 if enabled else 2), 10, f'the extension to be {method}d')

    def clip(self):
        return self.call(HELPER, '/io/github/tickerd/ShellTestHelper', HELPER, 'Clip')

    def shown_clip(self):
        """The clip's geometry once the item shows and is laid out, else None."""
        geometry = self.clip()
        return geometry if geometry[0] and all(np.isfinite(v) and v > 0 for v in geometry[3:7]) else None

    def shot(self, name, height):
        path = os.path.join(self.args.artifacts, f'{name}.png')
        before = now_us()
        ok, _ = self.call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                          'ScreenshotArea', GLib.Variant('(iiiibs)', (0, 0, 1280, height, False, path)))
        after = now_us()
        if not ok:
            raise Failure(f'screenshot {name} failed')
        pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
        rowstride, channels = pixbuf.get_rowstride(), pixbuf.get_n_channels()
        data = np.frombuffer(pixbuf.get_pixels(), dtype=np.uint8)
        rows = [data[r * rowstride:r * rowstride + pixbuf.get_width() * channels] for r in range(pixbuf.get_height())]
        image = np.stack(rows).reshape(pixbuf.get_height(), pixbuf.get_width(), channels)[:, :, :3]
        grey = image.astype(np.int32).mean(axis=2)
        self.shots += 1
        return before, after, grey, path

    def shot_screen(self, name):
        """The whole screen, for a person to look at (artifacts/gnome-shell/NAME.png)."""
        path = os.path.join(self.args.artifacts, f'{name}.png')
        ok, _ = self.call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                          'ScreenshotArea', GLib.Variant('(iiiibs)', (0, 0, 1280, 720, False, path)))
        if not ok:
            raise Failure(f'screenshot {name} failed')

    # cost

    def shell_counters(self):
        """(CPU seconds of the whole process, {thread: (name, voluntary context switches)}).

        Voluntary switches are the times a thread went to sleep to wait for something: each is one
        wake-up. Preemptions (nonvoluntary switches) are left out: they count how busy the rest of
        the machine is, not what the Shell was asked to do."""
        ticks = os.sysconf('SC_CLK_TCK')
        base = f'/proc/{self.args.shell_pid}'
        with open(f'{base}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime, exited threads included
        switches = {}
        for task in os.listdir(f'{base}/task'):
            try:
                with open(f'{base}/task/{task}/status') as f:
                    status = dict(line.rstrip('\n').split(':\t', 1) for line in f if ':\t' in line)
                switches[task] = (status.get('Name', '?').strip(), int(status['voluntary_ctxt_switches']))
            except (FileNotFoundError, KeyError, ValueError):
                continue
        return cpu, switches

    def cost(self, seconds):
        """gnome-shell's (ms of CPU per s, wake-ups per s, {thread name: wake-ups per s}) over
        `seconds` (wake-ups of every thread that lived through the window or began in it)."""
        cpu0, sw0 = self.shell_counters()
        t0 = time.monotonic()
        time.sleep(seconds)  # a measuring window, not a synchronisation
        cpu1, sw1 = self.shell_counters()
        elapsed = time.monotonic() - t0
        by_name = {}
        for task, (name, count) in sw1.items():
            woke = count - sw0.get(task, (name, 0))[1]
            by_name[name] = by_name.get(name, 0) + woke / elapsed
        return 1000 * (cpu1 - cpu0) / elapsed, sum(by_name.values()), by_name

    def settle(self):
        """Waits until gnome-shell is quiet (start-up animations and the like over)."""
        wait_for(lambda: self.cost(1.0)[0] < 15.0, 60, 'gnome-shell to go quiet')

    def idle_cost_check(self, what, rounds=4):
        """With nothing moving, the enabled extension costs what the disabled one does. Rounds of an
        enabled and a disabled window in turn, each after gnome-shell went quiet, until the cheapest
        enabled window is within bounds of the dearest disabled one (at least two rounds, at most
        `rounds`). A burst of the Shell's own work (or of another process on the machine) in some
        windows does not decide, while a frame clock or a timer left running (~60 wake-ups and tens
        of ms a second) shows in every enabled window and fails."""
        window = self.args.cost_window
        enabled, disabled = [], []

        def within():
            best = min(enabled, key=lambda e: (e[0], e[1]))
            worst = (max(d[0] for d in disabled), max(d[1] for d in disabled))
            cheap = min(e[0] for e in enabled) <= worst[0] + max(3.0, 0.3 * worst[0])
            quiet = min(e[1] for e in enabled) <= worst[1] + max(5.0, 0.3 * worst[1])
            return cheap and quiet, best, worst

        for index in range(rounds):
            self.settle()
            enabled.append(self.cost(window))
            self.extension(False)
            self.settle()
            disabled.append(self.cost(window))
            self.extension(True)
            ok, best, worst = within()
            if ok and index >= 1:
                break
        summary = (f'extension enabled {min(e[0] for e in enabled):.1f} ms/s, {min(e[1] for e in enabled):.1f} '
                   f'wake-ups/s; disabled {worst[0]:.1f} ms/s, {worst[1]:.1f} wake-ups/s')
        print(f'gnome-shell, {what}: {summary} (rounds: enabled '
              f'{[f"{e[0]:.1f}/{e[1]:.1f}" for e in enabled]}, disabled '
              f'{[f"{d[0]:.1f}/{d[1]:.1f}" for d in disabled]} ms/s / wake-ups/s)')
        if not ok:
            threads = ', '.join(f'{name} {rate:.1f}' for name, rate in
                                sorted(best[2].items(), key=lambda item: -item[1]) if rate >= 0.5)
            raise Failure(f'{what}: gnome-shell costs more with the extension than without over {len(enabled)} '
                          f'rounds: {summary}; wake-ups/s by thread in the cheapest enabled window: {threads}')


class Reader:
    """Reads the item's cells from a shot and matches them with Render's frames."""

    def __init__(self, probe, geometry):
        _, self.x, self.y, self.width, self.height, self.cell, self.columns, self.panel = geometry
        self.columns = int(self.columns)
        self.probe = probe
        self.cache = {}
        self.raised = 0
        self.digits = set()
        self.samples = []  # (digit Render shows, the cell's pixels, shot name)
        self.heights = {}  # letter or digit -> [(its ink's vertical centre, shot name)]
        self.seen = []  # (mid-instant of a shot, Render's `cycle` at the frame it shows)
        self.late = []  # shots that showed a frame from more than 250 ms before they were taken
        self.cell_time = None  # µs the text takes to move one cell (continuous mode), for `edge_halves`
        self.glyphs = {}  # wide cluster -> (its pixels wholly in view, x of its first cell in them)
        self.halves = []  # (edge, cluster, pixels of its part in view, x of them in its cells, shot name)

    def frame(self, at):
        """The frame the item draws at `at`: Render's for its columns, and while the text is between
        cells, for one more (the cell partly shown at the right edge: a wide character there is
        drawn whole and clipped, where Render of the columns alone shows its visible cell blank)."""
        if at not in self.cache:
            frame = self.probe.render(self.columns + 1, at)
            if frame[1] == 0:
                frame = self.probe.render(self.columns, at)
            self.cache[at] = frame
        return self.cache[at]

    def edge_halves(self, at, text, offset):
        """The wide clusters an edge of the view cuts in the frame at `at`, where Render of the
        columns shows the cell in view blank: [('left' or 'right', cluster, cell of its first cell
        in the view's columns)]. Left: the cluster whose second cell is column 0 is the first of
        Render one cell of motion earlier (continuous mode: `cell_time` before, the same offset,
        the cells after it those of this frame); right: the cluster of Render two cells wider
        whose first cell is the one partly shown past the last column."""
        found = []
        if offset <= 0:
            return found
        wide = self.probe.render(self.columns + 2, at)[0]
        last = [(k, cluster) for k, cluster, width in cells(wide) if k == self.columns and width == 2]
        if last:
            found.append(('right', last[0][1], self.columns))
        now = cells(text)
        if self.cell_time and now and now[0][1] == ' ':
            earlier, earlier_offset, _ = self.probe.render(self.columns + 2, at - self.cell_time)
            before = cells(earlier)
            follows = [(k - 1, c, w) for k, c, w in before if 2 <= k <= self.columns] == \
                [(k, c, w) for k, c, w in now if 1 <= k < self.columns]
            if before and before[0][2] == 2 and follows and abs(earlier_offset - offset) < 0.01:
                found.append(('left', before[0][1], -1))
        return found

    def sample_edges(self, grey, at, text, offset, name):
        """Keeps the pixels of every wide cluster wholly in view (its look), and those of the part
        in view of every wide cluster an edge cuts (at least EDGE_PX of it), for `edge_failures`."""
        top, bottom = int(round(self.y)), int(round(self.y + self.height))
        for k, cluster, width in cells(text):
            left = self.cell_left(k, offset)
            if width == 2 and cluster not in self.glyphs and left >= self.x and left + 2 * self.cell <= self.x + self.width:
                lo, hi = int(np.floor(left)) - 3, int(np.ceil(left + 2 * self.cell)) + 3
                self.glyphs[cluster] = (grey[top:bottom, lo:hi].copy(), left - lo)
        for edge, cluster, k in self.edge_halves(at, text, offset):
            left = self.cell_left(k, offset)
            a = int(np.ceil(max(left, self.x)))
            b = int(np.floor(min(left + 2 * self.cell, self.x + self.width)))
            if b - a >= EDGE_PX:
                self.halves.append((edge, cluster, grey[top:bottom, a:b].copy(), a - left, name))

    def edge_failures(self):
        """({edge: names of the shots checked there}, failures, the largest difference from the glyph
        as a share of the glyph's difference from the bar): a wide cluster cut by an edge must show
        its part in view as that cluster looks there when it is wholly in view (within a pixel or
        two of placement), not blank. Parts where the whole glyph has no ink are not counted."""
        checked = {'left': [], 'right': []}
        wrong = []
        worst = 0.0
        for edge, cluster, part, x, name in self.halves:
            if cluster not in self.glyphs:
                continue
            whole, first = self.glyphs[cluster]
            background = np.median(np.concatenate([whole[:, :2], whole[:, -2:]]))
            best = None
            for d in range(-2, 3):
                start = int(round(first + x)) + d
                if start < 0 or start + part.shape[1] > whole.shape[1]:
                    continue
                expected = whole[:, start:start + part.shape[1]]
                difference = np.abs(part - expected).mean()
                if best is None or difference < best[0]:
                    best = (difference, expected)
            if best is None or best[1].max() <= INK:
                continue
            checked[edge].append(name)
            contrast = np.abs(best[1] - background).mean()
            worst = max(worst, best[0] / contrast)
            if part.max() <= INK or best[0] > 0.5 * contrast:
                wrong.append(f'{name}: {cluster!r} cut at the {edge} edge shows {part.shape[1]} px '
                             f'{"blank" if part.max() <= INK else "unlike its glyph"} (mean difference '
                             f'{best[0]:.0f} grey levels, the glyph differs from the bar by {contrast:.0f})')
        return checked, wrong, worst

    def mismatches(self, grey, text, offset, limit=None):
        """Cells whose ink disagrees with `text` drawn at `offset` (a list of (cell, expected, seen)).
        A wide cluster (CJK, emoji) must ink its two cells with its ink centred in them, so a glyph
        drawn narrower or wider than two cells, or the text after it drifting, is seen."""
        shift = -round(offset * self.cell)
        top, bottom = int(round(self.y)), int(round(self.y + self.height))
        middle = (top + bottom) / 2
        wrong = []
        for k, char, width in cells(text):
            left = self.x + shift + k * self.cell
            if left < self.x - 0.01 or left + width * self.cell > self.x + self.width + 0.01:
                continue
            a, b = int(np.ceil(left)) + 1, int(np.floor(left + width * self.cell)) - 1
            block = grey[top:bottom, a:b]
            inked = block.max() > INK
            seen = 'ink' if inked else 'blank'
            if char == ' ':
                ok = not inked
            else:
                ok = inked
                if inked and char in '.\u02d9':
                    weights = np.clip(block - INK, 0, None).sum(axis=1)
                    centre = top + (weights * np.arange(len(weights))).sum() / weights.sum()
                    high = centre < middle
                    ok = high == (char == '\u02d9')
                    seen = 'high dot' if high else 'low dot'
                elif inked and width == 2:
                    # The glyph's ink is centred in its two cells.
                    lo, hi = int(np.floor(left)), int(np.ceil(left + 2 * self.cell))
                    weights = np.clip(grey[top:bottom, lo:hi] - INK, 0, None).sum(axis=0)
                    centre = lo + (weights * np.arange(len(weights))).sum() / weights.sum() + 0.5
                    ok = abs(centre - (left + self.cell)) <= self.cell / 3
                    seen = f'ink centred {centre - (left + self.cell):+.1f} px off'
            if not ok:
                wrong.append((k, char, seen))
                if limit is not None and len(wrong) > limit:
                    break
        return wrong

    def match(self, shot):
        """The instant within the shot's call window whose Render frame the shot shows, or a failure text."""
        before, after, grey, path = shot
        best = None
        matching = []
        # A loaded machine may show a frame a little late: instants from 250 ms before the call.
        for at in range(before - 250_000, after + 4_000, 4_000):
            text, offset, _ = self.frame(at)
            wrong = self.mismatches(grey, text, offset, limit=0 if best is not None or matching else None)
            if not wrong:
                matching.append(at)
            elif not matching and (best is None or len(wrong) < len(best[1])):
                best = (at, wrong, text)
        if matching:
            # Ink agrees over a pixel or two of motion: the best aligned instant centres the glyphs.
            at = min(matching, key=lambda m: self.alignment_error(grey, *self.frame(m)[:2]))
            text, offset, extras = self.frame(at)
            # Where the text is on screen (in cells of the stream), against when the shot was taken.
            self.seen.append(((before + after) / 2, extras.get('cycle', 0.0)))
            numbers = {tuple(w for w in self.frame(m)[0].split() if any(c.isdigit() for c in w)) for m in matching}
            if len(numbers) == 1:  # the counter did not tick while this shot may have been painted
                self.sample_digits(grey, text, offset, os.path.basename(path))
                # (else a cell may show another digit than the one the frame chosen puts there)
                self.sample_heights(grey, text, offset, os.path.basename(path))
            if self.cell_time:
                self.sample_edges(grey, at, text, offset, os.path.basename(path))
            if '\u02d9' in text:
                self.raised += 1
            for word in text.split():
                if any(c.isdigit() for c in word):
                    self.digits.add(word)
            return at, None
        # A frame from up to 2 s before: the Shell stalled (a loaded machine); counted, not failed,
        # unless it happens often (see late_failure).
        for late in range(before - 250_000, before - 2_000_000, -8_000):
            if not self.mismatches(grey, *self.frame(late)[:2], limit=0):
                self.late.append(f'{os.path.basename(path)} shows the frame of {(before - late) / 1000:.0f} ms before')
                return late, None
        at, wrong, text = best
        return None, (f'{os.path.basename(path)} (taken {before}–{after} µs) is no frame of Render: nearest at {at} '
                      f'is {text!r}, cells (cell, Render, seen) {wrong[:6]}')

    def late_failure(self, shots):
        """A failure text when more than 1 in 10 shots showed a stale frame.

        Why a shot may be stale at all: ScreenshotArea paints the stage when the Shell's main loop
        handles the call, with the actors as they are; the item moves them only when the frame
        clock dispatches a frame. A main thread starved of CPU (two cores shared with builds)
        dispatches late, and a call handled just before that late dispatch paints the previous
        frame's state. That is a property of the screenshot, not of what the display showed
        (it presents frames only at dispatches), so a few such shots are allowed, in the
        scrolling phase and after a restart alike."""
        if len(self.late) * 10 > shots:
            return f'{len(self.late)} of {shots} shots show a frame from before the shot: {self.late[:3]}'
        return None

    def alignment_error(self, grey, text, offset):
        """Mean distance (px) of each letter's or digit's ink centre from its cell's centre."""
        top, bottom = int(round(self.y)), int(round(self.y + self.height))
        errors = []
        for k, char, _ in cells(text):
            left = self.cell_left(k, offset)
            if not char.isalnum() or left < self.x or left + self.cell > self.x + self.width:
                continue
            a = int(np.floor(left))
            weights = np.clip(grey[top:bottom, a:a + int(np.ceil(self.cell))] - INK, 0, None).sum(axis=0)
            if weights.sum() > 0:
                centre = a + (weights * np.arange(len(weights))).sum() / weights.sum() + 0.5
                errors.append(abs(centre - (left + self.cell / 2)))
        return np.mean(errors) if errors else 0.0

    def cell_left(self, k, offset):
        return self.x - round(offset * self.cell) + k * self.cell

    def sample_digits(self, grey, text, offset, name):
        """Keeps the pixels of every digit cell wholly in view (for `digits_read`)."""
        for k, char, _ in cells(text):
            block = self.cell_block(grey, k, offset)
            if char.isdigit() and block is not None:
                self.samples.append((char, block, name))

    def sample_heights(self, grey, text, offset, name):
        """Notes where the ink of every ASCII letter and digit wholly in view sits vertically."""
        for k, char, _ in cells(text):
            block = self.cell_block(grey, k, offset)
            if char.isascii() and char.isalnum() and block is not None:
                weights = np.clip(block - INK, 0, None).sum(axis=1)
                if weights.sum() > 0:
                    centre = (weights * np.arange(len(weights))).sum() / weights.sum()
                    self.heights.setdefault(char, []).append((centre, name))

    def cell_block(self, grey, k, offset):
        """The pixels of cell `k` of a frame drawn at `offset`, or None when it is not wholly in view.
        Resampled at the cell's own sub-pixel position, so the same glyph gives the same block
        wherever the text stands (a block cut at whole pixels blurs one digit towards another)."""
        top, bottom = int(round(self.y)), int(round(self.y + self.height))
        left = self.cell_left(k, offset)
        if left < self.x or left + self.cell + 1 > self.x + self.width:
            return None
        a = int(np.floor(left))
        f = left - a
        width = int(self.cell)
        rows = grey[top:bottom].astype(float)
        return (1 - f) * rows[:, a:a + width] + f * rows[:, a + 1:a + width + 1]

    def jumps(self):
        """Letters and digits drawn higher or lower than that character usually is (by half a
        pixel or more): a line that jumps when another font's glyph (CJK, emoji) comes into view."""
        wrong = []
        for char, seen in sorted(self.heights.items()):
            usual = np.median([centre for centre, _ in seen])
            wrong += [f'{name}: {char!r} {centre - usual:+.1f} px' for centre, name in seen if abs(centre - usual) >= 0.5]
        return wrong

    def digits_read(self):
        """The number of different digits seen, and the digit cells whose pixels look more like
        another digit than the one Render shows there. A digit's look is the mean of every cell
        where Render shows it; only digits seen in at least DIGIT_SAMPLES cells have one (a look
        from one or two cells is that cell's noise, not the digit's)."""
        counts = {}
        for c, _, _ in self.samples:
            counts[c] = counts.get(c, 0) + 1
        looks = {}
        for char, count in counts.items():
            if count >= DIGIT_SAMPLES:
                looks[char] = np.mean([block for c, block, _ in self.samples if c == char], axis=0)
        wrong = []
        for char, block, name in self.samples:
            if char not in looks:
                continue
            nearest = min(looks, key=lambda c: np.abs(looks[c] - block).mean())
            if nearest != char:
                wrong.append(f'{name}: Render shows {char}, the cell looks like {nearest}')
        return len(counts), wrong


def across_restart(probe, geometry, height, prefix, away_shots=2, away_s=0.5):
    """Screenshots across a daemon restart as a unit manager does one (SIGTERM, the process gone, a
    new tickerd on the same bus and state directory, started without waiting for it): shots before,
    while it shuts down, while no daemon runs (`away_s` seconds after the old one exited, as a unit's
    RestartSec and a slow start would leave it, and at least `away_shots` shots with the bus name
    unowned before and after the shot), until the new daemon owns the name, and after. The extension keeps drawing through the
    name's absence (a grace of GRACE_S), so every shot must show the text: each is matched against
    the new daemon's Render (the same state, so the same Timeline and frames as the daemon that went),
    none may be blank, and the bar outside the item must not move (no relayout). Returns the reader,
    the seconds the name was away and the failures (a list of texts)."""
    shots = []  # (shot, owned before it, owned after it)

    def take():
        owned = probe.name_owned()
        shot = probe.shot(f'{prefix}-{len(shots):02d}', height)
        shots.append((shot, owned, probe.name_owned()))
        return shots[-1]

    for _ in range(3):
        take()
    probe.tickerd.terminate()
    while probe.tickerd.poll() is None:
        take()
    probe.tickerd.wait(30)
    exited = time.monotonic()
    # While no daemon runs (the unit's RestartSec): shots with the name away all through them.
    while sum(1 for _, a, b in shots if not a and not b) < away_shots or time.monotonic() - exited < away_s:
        if time.monotonic() - exited > GRACE_S:
            return None, 0.0, [f'{prefix}: the bus name still had an owner {GRACE_S} s after tickerd exited']
        take()
    probe.spawn_tickerd()
    while not take()[2]:
        if time.monotonic() - exited > 30:
            return None, 0.0, [f'{prefix}: the new tickerd did not take the bus name within 30 s']
    for _ in range(5):
        take()
    wait_for(lambda: probe.ctl('status', check=False).returncode == 0, 30, 'tickerd to serve the bus')
    # The name's absence, from the last shot call that saw it owned to the first that saw it back.
    calls = [(shot[0], a) for shot, a, _ in shots] + [(shot[1], b) for shot, _, b in shots]
    gone = [t for t, owned in sorted(calls) if not owned]
    owned_before = max((t for t, owned in calls if owned and t < gone[0]), default=gone[0])
    owned_after = min((t for t, owned in calls if owned and t > gone[-1]), default=gone[-1])
    away = (owned_after - owned_before) / 1e6
    failures = []
    if away >= GRACE_S:
        failures.append(f'{prefix}: the name was away {away:.2f} s, longer than the grace of {GRACE_S} s: '
                        'the restart was too slow to show anything')
    reader = Reader(probe, geometry)
    outside = {}
    for shot, a, b in shots:
        name = os.path.basename(shot[3])
        _, failure = reader.match(shot)
        if failure:
            failures.append(('(the name away) ' if not a and not b else '') + failure)
        rest = shot[2].copy()
        rest[:, int(reader.x) - 2:int(reader.x + reader.width) + 3] = 0
        # The clock turns over up to a few seconds into a minute: those shots are not compared.
        minute = shot[0] // 60_000_000 if shot[0] % 60_000_000 >= 3_000_000 else None
        if minute is not None and minute in outside and not np.array_equal(outside[minute][0], rest):
            failures.append(f'the bar outside the item changed between {outside[minute][1]} and {name} (a relayout)')
        if minute is not None:
            outside.setdefault(minute, (rest, name))
    if reader.late_failure(len(shots)):
        failures.append(reader.late_failure(len(shots)))
    if not failures:
        print(f'{prefix}: {len(shots)} shots across a daemon restart, {sum(1 for _, a, b in shots if not a and not b)} '
              f'of them with the name away (away {away:.2f} s): every one shows Render\'s frame, none blank '
              f'({len(reader.late)} stale)')
    return reader, away, failures


def arguments():
    """The command line gnome-shell-test.sh gives the probe and the day steps."""
    parser = argparse.ArgumentParser()
    for option in ('--bin', '--bus', '--shell-log', '--work', '--artifacts', '--uuid'):
        parser.add_argument(option, required=True)
    parser.add_argument('--shell-pid', type=int, required=True)
    parser.add_argument('--cost-window', type=float, default=8)
    # The ES-module form of the built extension: its prefspage.js and panelitem.js for the
    # preferences window (the same code as the legacy form's).
    parser.add_argument('--prefs', default='')
    return parser.parse_args()


def main():
    args = arguments()
    started = time.monotonic()
    try:
        probe = Probe(args)
        wait_for(lambda: probe.call(HELPER, '/io/github/tickerd/ShellTestHelper', HELPER, 'HideOverview')[0], 120,
                 'the Shell to start and leave its overview')
        probe.start_tickerd()
        print(f'gnome-shell up and tickerd serving after {time.monotonic() - started:.0f} s')

        # Start-up with nothing to show.
        if probe.clip()[0]:
            raise Failure('the item shows while the channel is empty')
        probe.idle_cost_check('start-up with nothing to show')

        # Scrolling, with a counting field and jumping dots.
        probe.ctl('configure', 'main', f'speed={SPEED:g}', 'mode=continuous')
        # A slow count (one step in about 1.2 s), so each shot's digits are known for sure.
        probe.ctl('set', '--duration', '600s', '--grouping', '--from', '12000', 'builds', '12500')
        # Urgent posts switch at once, so one tape is seen over a whole cycle.
        probe.ctl('post', '--urgent', '--id', 'ci', 'CI today: {builds} builds')
        probe.ctl('post', '--urgent', '--id', 'sync', '--effect', 'dots', 'Syncing...')
        probe.ctl('post', '--urgent', '--id', 'long', 'It is a long message, so the tape scrolls in a 360 px item')
        # Wide characters drawn by fallback fonts (Noto Sans CJK, Noto Color Emoji) whose advances
        # are not two monospace cells: each must still sit in its two cells (and enough of them
        # pass the edges in a cycle for the checks of the ones cut there).
        probe.ctl('post', '--urgent', '--id', 'wide', '東京 中文 🚀 launch 大阪 🎉 北京')
        geometry = wait_for(lambda: probe.shown_clip(), 20, 'the item to show')
        reader = Reader(probe, geometry)
        print(f'item: {reader.width:.0f}x{reader.height:.0f} px at ({reader.x:.0f}, {reader.y:.0f}), '
              f'{reader.columns} columns of {reader.cell:.3f} px')
        timeline = probe.timeline()
        if 'next' in timeline:
            raise Failure(f'an urgent post left a pending change: {timeline}')
        cycle = timeline['width'] / timeline['speed']
        reader.cell_time = round(1e6 / timeline['speed'])
        expected_px = timeline['speed'] * reader.cell
        height = int(reader.panel)
        failures = []
        outside = {}
        index = 0
        # Shots until they span one whole cycle (and a little more), and caught wide characters cut
        # by each edge (at most three more cycles).
        shots_span = None  # (last, first) mid-instants of the shots
        caught = lambda: min(len(names) for names in reader.edge_failures()[0].values())
        while not shots_span or (shots_span[0] - shots_span[1]) / 1e6 < cycle + 0.3 or \
                (caught() < EDGE_SHOTS and (shots_span[0] - shots_span[1]) / 1e6 < 4 * cycle):
            shot = probe.shot(f'scroll-{index:04d}', height)
            at, failure = reader.match(shot)
            if failure:
                failures.append(failure)
            shots_span = ((shot[0] + shot[1]) / 2, shots_span[1] if shots_span else (shot[0] + shot[1]) / 2)
            # The rest of the bar, outside the item, within one wall-clock minute (the clock; the
            # Shell turns its clock over up to a few seconds after the minute starts, so shots in
            # those seconds are not compared).
            rest = shot[2].copy()
            rest[:, int(reader.x) - 2:int(reader.x + reader.width) + 3] = 0
            minute = shot[0] // 60_000_000 if shot[0] % 60_000_000 >= 3_000_000 else None
            if minute is None:
                pass
            elif minute in outside and not np.array_equal(outside[minute][0], rest):
                failures.append(f'the bar outside the item changed between {outside[minute][1]} and '
                                f'{os.path.basename(shot[3])} (the item changed width)')
            if minute is not None:
                outside.setdefault(minute, (rest, os.path.basename(shot[3])))
            index += 1
        if probe.clip()[1:5] != geometry[1:5]:
            failures.append(f'the item moved or changed size: {geometry[1:5]} then {probe.clip()[1:5]}')
        # The speed on screen: the positions the shots show (each read from the pixels as one of
        # Render's frames) against the instants they were taken, fitted over the whole cycle.
        times = np.array([m for m, _ in reader.seen]) / 1e6
        positions = np.array([c for _, c in reader.seen]) * timeline['width'] * reader.cell
        speed = np.polyfit(times, positions, 1)[0] if len(times) > 2 else 0.0
        seconds = times[-1] - times[0] if len(times) else 0.0
        print(f'scrolling: {index} shots over {seconds:.1f} s (one cycle is {cycle:.1f} s); '
              f'{speed:.1f} px/s (Timeline: {expected_px:.1f}); {reader.raised} shots with raised dots; '
              f'counter values seen: {sorted(reader.digits)[:8]}')
        if abs(speed - expected_px) > 0.02 * expected_px:
            failures.append(f'the text moves at {speed:.1f} px/s, the Timeline says {expected_px:.1f} px/s')
        edges, cut_wrong, worst = reader.edge_failures()
        print(f'edges: wide characters cut by the left edge in {len(edges["left"])} shots, by the right edge '
              f'in {len(edges["right"])}, {len(cut_wrong)} not drawn as their glyph\'s part in view (worst: '
              f'{100 * worst:.0f}% of the glyph\'s difference from the bar)')
        failures += cut_wrong
        if min(len(names) for names in edges.values()) < EDGE_SHOTS:
            failures.append(f'too few shots show a wide character cut by an edge: {edges}')
        for edge, names in edges.items():  # one of each kept for a look
            if names:
                shutil.copyfile(os.path.join(args.artifacts, names[0]), os.path.join(args.artifacts, f"edge-{edge}.png"))
        if reader.late_failure(index):
            failures.append(reader.late_failure(index))
        if reader.late:
            print(f'scrolling: stale frames (the Shell stalled): {reader.late}')
        if reader.raised == 0:
            failures.append('no shot shows a raised dot')
        if len(reader.digits) < 2:
            failures.append(f'the counter does not count on screen: {reader.digits}')
        kinds, misread = reader.digits_read()
        print(f'counter digits: {len(reader.samples)} digit cells read, {kinds} different digits, {len(misread)} misread'
              + (f': {misread[:3]}' if misread else ''))
        # One cell in a hundred may be misread by the nearest-look reader (an antialiased '0' has
        # read as '3' or '5' in a shot that plainly shows '0'); counters the item does not draw as
        # Render does (blank, stale or eased differently) misread in most of their cells.
        if kinds < 5 or len(misread) > len(reader.samples) // 100:
            failures.append(f'the counter\'s digits are not Render\'s ({kinds} digits seen): {misread[:3]}')
        jumps = reader.jumps()
        print(f'baseline: {sum(len(v) for v in reader.heights.values())} letter and digit cells, {len(jumps)} off their line')
        if jumps:
            failures.append(f'the text jumps up or down: {jumps[:3]}')
        if failures:
            raise Failure('; '.join(failures[:5]) + (f' (and {len(failures) - 5} more)' if len(failures) > 5 else ''))

        # The scrolling cost, with the extension and without.
        window = args.cost_window
        scrolling = probe.cost(window)
        probe.extension(False)
        disabled = probe.cost(window)
        probe.extension(True)
        print(f'gnome-shell scrolling cost ({window:g} s windows): extension enabled {scrolling[0]:.1f} ms/s, '
              f'{scrolling[1]:.1f} wake-ups/s; disabled {disabled[0]:.1f} ms/s, {disabled[1]:.1f} wake-ups/s')

        # A daemon restart: the item comes back at the right phase. First the re-enabled item must
        # show Render's frames, so a mismatch after the restart is the restart's. A re-shown item
        # may be read before the bar has laid it out again: it must be back where it was.
        place = geometry[1:5]
        back_in_place = lambda: (lambda g: g if g and g[1:5] == place else None)(probe.shown_clip())
        geometry = wait_for(back_in_place, 20, f'the re-enabled item at {place}')
        reader = Reader(probe, geometry)
        _, failure = reader.match(probe.shot('before-restart', height))
        if failure:
            raise Failure(f'the re-enabled item: {failure}')
        before = probe.timeline()
        # The restart itself: shots across it, the name away in some, each showing the text.
        _, _, failures = across_restart(probe, geometry, height, 'across-restart')
        if failures:
            raise Failure(f'across a daemon restart, {len(failures)} failure(s): ' + '; '.join(failures[:3]))
        after = probe.timeline()
        changed = {key: (before.get(key), after.get(key)) for key in set(before) | set(after)
                   if before.get(key) != after.get(key)}
        print(f'daemon restart: the Timeline keys that changed: {changed}')
        geometry = wait_for(back_in_place, 20, f'the item after the restart at {place}')
        reader = Reader(probe, geometry)
        failures = [failure for failure in (reader.match(probe.shot(f'restart-{k:02d}', height))[1] for k in range(20))
                    if failure]
        if failures or reader.late_failure(20):
            text, shift, at = probe.call(HELPER, '/io/github/tickerd/ShellTestHelper', HELPER, 'Drawn')
            rendered = probe.render(reader.columns + 1, at) if at else None
            drawn = (f' The item drew {text!r} shifted {shift} px for {at}; Render gives {rendered[0]!r} at offset '
                     f'{rendered[1]:.3f} ({-round(rendered[1] * reader.cell)} px) then; geometry now {probe.clip()[1:5]}, '
                     f'read {geometry[1:5]}.') if rendered else ''
            now = probe.timeline()
            since = {key: (after.get(key), now.get(key)) for key in set(after) | set(now) if after.get(key) != now.get(key)}
            raise Failure(f'after a daemon restart, {len(failures)} of 20 shots: ' + '; '.join(failures[:3]) +
                          (reader.late_failure(20) or '') + f' (Timeline keys changed since the restart: {since}; '
                          f'Timeline now {now}).' + drawn)
        print(f'daemon restart: 20 shots match Render ({len(reader.late)} stale: {reader.late})')

        # A still text, then an emptied channel: nothing moves, nothing costs.
        probe.ctl('remove', 'ci', 'sync', 'long', 'wide')
        probe.ctl('post', '--urgent', '--id', 'still', 'still text')
        wait_for(lambda: probe.render(reader.columns, now_us())[0].startswith('still text'), 60, 'the still text')
        _, failure = reader.match(probe.shot('still', height))
        if failure:
            raise Failure(f'still text: {failure}')
        probe.idle_cost_check('a still text')
        probe.ctl('remove', 'still')
        wait_for(lambda: not probe.clip()[0], 30, 'the item to hide once the channel is emptied')
        probe.idle_cost_check('an emptied channel')
    except Failure as failure:
        print(f'FAIL: {failure}', file=sys.stderr)
        return 1
    finally:
        try:
            if probe.tickerd:
                probe.tickerd.terminate()
                probe.tickerd.wait(30)
        except NameError:
            pass
    # Passing shots are not kept; failing ones stay for a look.
    for name in os.listdir(args.artifacts):
        if name.endswith('.png') and not name.startswith(('scroll-0000', 'edge-', 'before-restart', 'across-restart', 'restart-00', 'still')):
            os.remove(os.path.join(args.artifacts, name))
    print(f'gnome-shell: all checks hold ({probe.shots} screenshots, {time.monotonic() - started:.0f} s)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
