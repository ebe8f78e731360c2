#!/usr/bin/python3
"""A day with the GNOME Shell extension: the checks of contrib/tests/gnome-shell-test.sh after the
scrolling cycle (gnome_shell_probe.py), run inside the same dbus-run-session and Shell.

Each step reads screenshots of the top bar against the daemon's Render (gnome_shell_probe.Reader:
every shot a frame of Render at an instant of the shot's call window, wide glyphs centred in their
cells, the text at the item's place):

* a click on a message (a virtual pointer of the Shell's own seat, through the test-only helper
  extension) is seen by dbus-monitor as MessageAt, Activate and the Manager's Activated(main, id);
* the daemon restarted (SIGTERM, a new tickerd on the same bus and state directory, as a unit
  restarts it): every shot across it, those while its bus name has no owner included, shows
  Render's frame (the extension keeps the text for its 2 s grace: no blank shot, no relayout);
* the daemon killed for good (SIGKILL): the shots in the first second after still show Render's
  frame, then the item hides after the grace, within GRACE_S + HIDE_MARGIN_S (2 + 2 s) of the kill
  and not before GRACE_S − 0.2 s, and the helper reports it hidden in each of 10 shots while tickerd is gone (no
  frozen text); once tickerd is started again the shots match Render, with no shell restart;
* the content changes while the text scrolls: a post that waits for its seam (shots until a
  second before its switch and from 0.4 s after it, see `changes`), a removal, a message
  reaching the end of its window (ttl): every shot is Render's frame at its instant; an emptied
  channel hides the item;
* a new speed while the text scrolls: the first shot after it shows the text where the last shot
  before it left it (moved on no faster than the old speed), not back at its first letter;
* texts people write: Hebrew, Arabic and mixed-direction text, emoji, CJK, a very long message
  and a single short word: every shot is Render's frame (ink in every cell Render fills, none
  in its spaces, wide glyphs centred in their two cells);
* the Shell stopped for 3 s (SIGSTOP, then SIGCONT: what a suspend does to its main loop): from
  the item's first frame after it, the shots show the frame of the real time, not a catch-up from
  where it stopped (a frame more than 2 s old matches no instant; at most one shot in ten may be
  painted late);
* the preferences (prefspage.js in a libadwaita window on this Shell, driven as a person uses
  it: contrib/tests/gnome_prefs_driver.js): the Channel row's list offers the daemon's channels
  (as `tickerctl status` has them; day-prefs-list.png; on a bus without the daemon it says that
  tickerd is not running, and without a bus that it cannot reach one), and another channel picked from it moves the item to that
  channel, every shot Render's frame of it; a name typed that is no channel name shows an error
  and changes nothing; a new width resizes the item to it (and the shots match Render at the
  new columns), a new place moves it to the left box; the window is shot for a person to look at
  (day-prefs.png), and the Shell's own preferences app opens the installed prefs.js
  (day-prefs-app.png); then the settings go back to their defaults and the item to main.

One shot in ten of a step may show a frame painted up to 2 s late by a starved Shell
(gnome_shell_probe.Reader.late_failure).
Exits 1 naming the step and frame; shots stay in --artifacts (day-*.png).
"""
import json
import os
import signal
import subprocess
import sys
import time

from gi.repository import GLib

from gnome_shell_probe import GRACE_S, HELPER, Failure, Probe, Reader, across_restart, arguments, now_us, wait_for

HELPER_PATH = '/io/github/tickerd/ShellTestHelper'
HIDE_MARGIN_S = 2.0  # after the grace, for the Shell's timeout and layout on a loaded machine


class Day:
    def __init__(self, probe, args):
        self.probe = probe
        self.args = args
        self.height = None
        self.reader = None
        self.place = None

    def ctl(self, *args, check=True):
        return self.probe.ctl(*args, check=check).stdout.strip()

    def settle_place(self):
        """Notes where the shown item sits once the bar has laid it out: the same geometry before
        and after a screenshot (which paints the stage, so a pending layout has run)."""
        def settled():
            before = self.probe.shown_clip()
            self.probe.shot('day-place', self.height)
            after = self.probe.shown_clip()
            return after[1:5] if before and after and before[1:5] == after[1:5] else None
        self.place = wait_for(settled, 20, 'the item to show and keep its place')

    def shown(self):
        """A reader for the item once it shows at the place it had (the bar lays it out again
        after it was hidden), else None."""
        geometry = self.probe.shown_clip()
        if not geometry or (self.place and geometry[1:5] != self.place):
            return None
        return geometry

    def read(self, what, seconds=None, count=None):
        """Shots for `seconds` (or `count` shots), each matched against Render; a failure names
        `what`. Returns the shots' names."""
        geometry = wait_for(self.shown, 20, f'the item to show ({what})')
        reader = Reader(self.probe, geometry)
        self.reader = reader
        names, failures = [], []
        end = time.monotonic() + (seconds or 0)
        index = 0
        while (count is not None and index < count) or (seconds is not None and time.monotonic() < end):
            name = f'day-{what}-{index:03d}'
            shot = self.probe.shot(name, self.height)
            _, failure = reader.match(shot)
            if failure:
                text, shift, at = self.probe.call(HELPER, HELPER_PATH, HELPER, 'Drawn')
                labels = self.probe.call(HELPER, HELPER_PATH, HELPER, 'Labels')[0]
                rendered = self.probe.render(reader.columns + 3, at) if at else ('', 0.0, {})
                failures.append(f'{failure}; the item drew {text!r} shifted {shift} px for {at} (Render of '
                                f'{reader.columns + 3} columns then: {rendered[0]!r} at offset {rendered[1]:.3f}), its '
                                f'labels [text, x, y, width] {labels}')
            names.append((name, shot))
            index += 1
        if failures:
            raise Failure(f'{what}: {len(failures)} of {index} shots are no frame of Render: ' + '; '.join(failures[:2]))
        # A starved Shell may paint a frame late (gnome_shell_probe.Reader.late_failure): one shot in
        # ten may show one up to 2 s old. A catch-up after a stop would show frames older than that,
        # which match no instant at all.
        if reader.late_failure(index):
            raise Failure(f'{what}: {reader.late_failure(index)}')
        print(f'{what}: {index} shots match Render' + (f' ({len(reader.late)} stale)' if reader.late else ''))
        return names

    # 1. clicks

    def click(self):
        self.ctl('configure', 'main', 'speed=8', 'mode=continuous')
        link = 'https://example.org/day?from=shell&x=1'
        self.ctl('post', '--urgent', '--id', 'news', '--link', link,
                 'Evening news: the tickerd extension takes clicks on the message under the pointer')
        self.settle_place()
        geometry = wait_for(self.shown, 20, 'the item to show')
        trace_path = os.path.join(self.args.work, 'day-monitor.txt')
        with open(trace_path, 'w') as trace_file:
            monitor = subprocess.Popen(
                ['dbus-monitor', '--address', self.args.bus,
                 "type='method_call',interface='io.github.tickerd.Ticker1.Channel'",
                 "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='Activated'"],
                stdout=trace_file, stderr=subprocess.STDOUT)
        trace = lambda: open(trace_path).read()
        try:
            wait_for(lambda: 'NameAcquired' in trace(), 10, 'dbus-monitor to start')
            _, x, y, width, height, cell, columns, _ = geometry
            # A letter of the message near the middle of the item, by the frame of now.
            text, offset, _ = self.probe.render(int(columns), now_us())
            column = next(k for k in range(int(columns) // 3, int(columns)) if text[k].isalnum())
            self.probe.call(HELPER, HELPER_PATH, HELPER, 'Click',
                            GLib.Variant('(ddu)', (x + (column + 0.5 - offset) * cell, y + height / 2, 1)))

            def activated():
                seen = trace()
                return 'member=Activated' in seen and 'string "news"' in seen.split('member=Activated', 1)[1]
            try:
                wait_for(activated, 10, 'Activated(main, news) after a click on the message')
            except Failure as failure:
                raise Failure(f'click: {failure}; dbus-monitor saw: {trace()[-800:]}') from None
            seen = trace()
            for member in ('member=MessageAt', 'member=Activate\n', 'member=Activated'):
                if member not in seen and member.strip() + ' ' not in seen:
                    raise Failure(f'click: dbus-monitor saw no {member.strip()}: {seen[-800:]}')
            print('click: dbus-monitor saw MessageAt, Activate and Activated(main, news)')
        finally:
            monitor.terminate()
            monitor.wait(10)
        self.ctl('remove', 'news')

    # 2. the daemon away

    def daemon_away(self):
        self.ctl('post', '--urgent', '--id', 'away', 'A daemon restart must not leave this text frozen in the bar')
        self.read('before-crash', count=5)
        # A restart: the text stays through it.
        geometry = wait_for(self.shown, 20, 'the item to show (restart)')
        _, _, failures = across_restart(self.probe, geometry, self.height, 'day-restart')
        if failures:
            raise Failure(f'daemon restart: {len(failures)} failure(s): ' + '; '.join(failures[:3]))
        # Killed for good: the text stays for the grace, then the item hides.
        geometry = wait_for(self.shown, 20, 'the item to show (kill)')
        os.kill(self.probe.tickerd.pid, signal.SIGKILL)
        self.probe.tickerd.wait(10)
        killed = time.monotonic()
        grace_shots = []
        while time.monotonic() - killed < 1.0:
            grace_shots.append(self.probe.shot(f'day-grace-{len(grace_shots):03d}', self.height))
        # Hidden by the end of the grace plus a margin for a loaded Shell, counted from the kill.
        wait_for(lambda: not self.probe.clip()[0], killed + GRACE_S + HIDE_MARGIN_S - time.monotonic(),
                 f'the item to hide within {GRACE_S} + {HIDE_MARGIN_S} s of the daemon\'s kill')
        hidden_after = time.monotonic() - killed
        if hidden_after < GRACE_S - 0.2:
            raise Failure(f'daemon killed: the item hid {hidden_after:.2f} s after the kill, before the grace of {GRACE_S} s')
        # While the daemon is away: no item, and no ink where it was (the clock may move in).
        for index in range(10):
            name = f'day-away-{index:03d}'
            _, _, grey, _ = self.probe.shot(name, self.height)
            shown, drawn = self.probe.clip()[0], self.probe.call(HELPER, HELPER_PATH, HELPER, 'Drawn')
            if shown:
                raise Failure(f'daemon away: the item shows again in {name} (drawn: {drawn})')
        print(f'daemon away: the item hid {hidden_after:.2f} s after the kill (grace {GRACE_S} s) and stayed hidden '
              'in 10 shots')
        self.probe.start_tickerd()
        # The shots of the grace, matched now that a daemon answers Render again (the same state).
        reader = Reader(self.probe, geometry)
        failures = [failure for failure in (reader.match(shot)[1] for shot in grace_shots) if failure]
        if failures or reader.late_failure(len(grace_shots)):
            raise Failure(f'daemon killed: {len(failures)} of {len(grace_shots)} shots in the grace are no frame of '
                          f'Render: ' + '; '.join(failures[:2]) + (reader.late_failure(len(grace_shots)) or ''))
        print(f'daemon killed: {len(grace_shots)} shots in the first second after it show Render\'s frame')
        self.read('after-crash', count=15)

    # 3. content changes mid-scroll

    def changes(self):
        self.ctl('configure', 'main', 'speed=10')
        self.ctl('remove', 'away', check=False)
        self.ctl('post', '--urgent', '--id', 'base', 'The text that scrolls while the content changes under it')
        self.ctl('post', '--id', 'second', 'a second message joins at its seam')
        timeline = self.probe.timeline()
        if 'next' not in timeline:
            raise Failure(f'changes: the post did not wait for its seam: {timeline}')
        # The instant the stream reaches the switch (continuous, leftwards: position `switch`).
        switch = timeline['anchor'] + (timeline['switch'] - timeline['position']) / timeline['speed'] * 1e6
        # Shots until a second before the switch, then from 0.4 s after it: Render asked after the
        # switch answers for earlier instants from the settled Timeline, so a shot painted just
        # before it could not be matched once the reader (looking up to 250 ms back, many Render
        # calls per shot) gets to it.
        seconds = (switch - now_us()) / 1e6 - 1.0
        if not -1.0 < seconds < 30:
            raise Failure(f'changes: the switch is {seconds + 1.0:.1f} s away: {timeline}')
        if seconds > 0:
            self.read('post', seconds=seconds)
        wait_for(lambda: now_us() > switch + 400_000, 30, 'the instant of the switch to pass')
        self.read('switched', seconds=2)
        self.ctl('remove', 'second')
        self.read('remove', seconds=3)
        self.ctl('post', '--urgent', '--ttl', '3s', '--id', 'brief', 'brief: gone in three seconds')
        self.read('expiry', seconds=6)
        self.ctl('remove', 'base')
        wait_for(lambda: not self.probe.clip()[0], 30, 'the item to hide once the channel is emptied')
        self.probe.shot('day-emptied', self.height)
        print('changes: post, removal and expiry match Render throughout; the emptied item hides')

    # 3b. a new speed mid-scroll

    def speed(self):
        """The speed changed while the text scrolls: the shots after it go on from where the text
        was, slower; it does not start over from its first letter."""
        self.ctl('configure', 'main', 'speed=12', 'mode=continuous')
        self.ctl('post', '--urgent', '--id', 'pace', 'A person slows the ticker down to read it, and it goes on from here')
        self.read('speed-fast', seconds=3)
        fast = self.reader.seen[-1]
        self.ctl('configure', 'main', 'speed=3')
        self.read('speed-slow', seconds=2)
        slow = self.reader.seen[0]
        width = len(self.probe.timeline()['tape'])  # ASCII: a cell a character
        moved = (slow[1] - fast[1]) * width
        elapsed = (slow[0] - fast[0]) / 1e6
        # Forwards, and no faster than the old speed over the time between the two shots.
        if not 0 <= moved <= 12 * elapsed + 2:
            raise Failure(f'speed: the text moved {moved:.1f} cells in the {elapsed:.2f} s across the change '
                          f'(from cycle {fast[1]:.3f} to {slow[1]:.3f} of {width} cells): it jumped')
        self.ctl('remove', 'pace')
        print(f'speed: the text went on {moved:.1f} cells in the {elapsed:.2f} s across the change, then slower')

    # 4. texts

    def texts(self):
        samples = [
            ('hebrew', 'שלום עולם, חדשות הערב'),
            ('arabic', 'مرحبا بالعالم أخبار المساء'),
            ('mixed', 'Build 42 עבר בהצלחה ✅ in 3 min — مرحبا 東京'),
            ('emoji', '🚀 launch ✅ done ⭐ ☕ ❤️ 👍🏽 ok 🇫🇷 France 🎉'),
            ('cjk', '東京の天気は晴れ 北京 中文 한국어'),
            ('long', ' '.join(f'word{n}' for n in range(120))),
            ('short', 'Hi'),
        ]
        self.ctl('configure', 'main', 'speed=8')
        if self.place is None:
            self.ctl('post', '--urgent', '--id', 'place', 'where the item sits')
            self.settle_place()
            self.ctl('remove', 'place')
        for index, (what, text) in enumerate(samples):
            # The removal waits for its seam; the urgent post then switches at once to the
            # messages as they are: the new text alone.
            if index:
                self.ctl('remove', samples[index - 1][0])
            self.ctl('post', '--urgent', '--id', what, text)
            wait_for(lambda: text.split()[0] in self.probe.render(400, now_us())[0], 20, f'the {what} text')
            self.read(f'text-{what}', seconds=2)
        self.ctl('remove', samples[-1][0])

    # 5. the Shell stopped and resumed

    def suspend(self):
        self.ctl('post', '--urgent', '--id', 'sleep', 'After a suspend the ticker shows the frame of now, no catch-up')
        self.read('before-stop', count=3)
        os.kill(self.args.shell_pid, signal.SIGSTOP)
        try:
            time.sleep(3)  # the length of the modelled suspend, not a synchronisation
        finally:
            os.kill(self.args.shell_pid, signal.SIGCONT)
        # Until its frame clock has run once, the item still holds the frame drawn before the stop
        # (a screenshot can be answered first); what is drawn from then on is what is checked.
        resumed = now_us()
        wait_for(lambda: self.probe.call(HELPER, HELPER_PATH, HELPER, 'Drawn')[2] >= resumed, 10,
                 'the item to draw a frame after the Shell resumed')
        self.read('after-stop', count=10)
        self.ctl('remove', 'sleep')

    # 6. the preferences (last: its windows are the only ones the day opens)

    def preferences(self):
        """The preferences page, in a real window on this Shell, changes what the item shows."""
        self.ctl('configure', 'side', 'speed=8')
        self.ctl('post', '--channel', 'side', '--urgent', '--id', 'side',
                 'The side channel, chosen in the preferences, now in the top bar')
        self.ctl('post', '--urgent', '--id', 'home', 'The main channel, shown until the preferences say otherwise')
        self.place = None
        self.settle_place()
        self.read('prefs-main', count=3)
        installed = os.path.join(self.args.work, 'data', 'gnome-shell', 'extensions', self.args.uuid)
        environment = dict(os.environ, WAYLAND_DISPLAY='wayland-0', GDK_BACKEND='wayland', GTK_A11Y='none')

        def start_driver(bus):
            driver = subprocess.Popen(
                ['gjs', '-m', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gnome_prefs_driver.js'),
                 self.args.prefs, os.path.join(installed, 'schemas')],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=open(os.path.join(self.args.work, 'prefs.log'), 'a'),
                text=True, bufsize=1, env=dict(environment, DBUS_SESSION_BUS_ADDRESS=bus))
            shown = driver.stdout.readline().strip()
            if not shown.startswith('shown ok ') or json.loads(shown[9:])['rows'] != ['main', 360, 1]:
                raise Failure(f'preferences: the window opened with {shown!r} (see prefs.log)')
            return driver

        def say(line):
            driver.stdin.write(line + '\n')
            driver.stdin.flush()
            answer = driver.stdout.readline().strip()
            if not answer.startswith('ok '):
                raise Failure(f'preferences: {line!r} answered {answer!r} (see prefs.log)')
            return json.loads(answer[3:])

        def quit_driver():
            driver.stdin.write('quit\n')
            driver.stdin.close()
            driver.wait(10)
            wait_for(lambda: not window_open(), 10, 'the preferences window to close')

        def item(channel, box):
            return lambda: tuple(self.probe.call(HELPER, HELPER_PATH, HELPER, 'Item')) == (channel, box)

        def window_open():
            return 'tickerd ticker' in self.probe.call(HELPER, HELPER_PATH, HELPER, 'Windows')[0]

        # A new window may bring the overview back: left again, the window shows on the desktop.
        def window_shown():
            self.probe.call(HELPER, HELPER_PATH, HELPER, 'HideOverview')
            return window_open()
        driver = None
        empty_bus = subprocess.Popen(['dbus-daemon', '--session', '--nofork', '--nopidfile', '--print-address'],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            # On a bus without the daemon the list says so, and offers nothing.
            driver = start_driver(empty_bus.stdout.readline().strip())
            state = say('channels')
            if state['listed'] or not state['why'].startswith('tickerd is not running'):
                raise Failure(f'preferences: without the daemon the Channel row\'s list shows {state}')
            quit_driver()
            empty_bus.kill()
            empty_bus.wait(10)
            # Without a session bus at all, it says that.
            driver = start_driver('unix:path=/nonexistent/tickerd-test-bus')
            state = say('channels')
            if state['listed'] or not state['why'].startswith('The session bus cannot be reached'):
                raise Failure(f'preferences: without a session bus the Channel row\'s list shows {state}')
            quit_driver()
            driver = start_driver(self.args.bus)
            wait_for(window_shown, 20, 'the preferences window to show')
            self.probe.shot_screen('day-prefs')
            state = say('channel Bad Name')
            if state['channel'] != 'main' or not state['error']:
                raise Failure(f'preferences: a name that is no channel name was taken: {state}')
            state = say('channels')
            daemon = sorted(channel['Name'] for channel in json.loads(self.ctl('status', '--json'))['channels'])
            if state['listed'] != daemon or 'side' not in daemon:
                raise Failure(f'preferences: the Channel row lists {state["listed"]}, the daemon has {daemon}')
            if not state['open'] or not state['painted']:
                raise Failure(f'preferences: the open list was not drawn: {state}')
            self.probe.shot_screen('day-prefs-list')
            state = say('pick side')
            if state['channel'] != 'side' or state['error'] or state['rows'][0] != 'side':
                raise Failure(f'preferences: the channel picked from the list was not applied: {state}')
            wait_for(item('side', 'center'), 10, 'the item to show the side channel')
            self.probe.channel = 'side'
            self.place = None
            self.settle_place()
            self.read('prefs-side', seconds=2)
            say('width 240')
            wait_for(lambda: (self.probe.shown_clip() or [0] * 8)[3] <= 240, 10, 'the item to narrow to 240 px')
            self.place = None
            self.settle_place()
            width, columns = self.place[2], int(self.probe.clip()[6])
            self.read('prefs-narrow', seconds=2)
            say('position 0')
            wait_for(item('side', 'left'), 10, 'the item to move to the left box')
            self.place = None
            self.settle_place()
            self.read('prefs-left', count=5)
            quit_driver()
            # The Shell's own preferences app (org.gnome.Shell.Extensions) loads the installed prefs.js.
            subprocess.run(['gnome-extensions', 'prefs', self.args.uuid], check=True)
            wait_for(window_shown, 30, 'the Shell\'s preferences app to show the extension\'s window')
            self.probe.shot_screen('day-prefs-app')
            self.probe.call(HELPER, HELPER_PATH, HELPER, 'CloseWindow', GLib.Variant('(s)', ('tickerd ticker',)))
            wait_for(lambda: not window_open(), 10, 'the preferences app\'s window to close')
            print(f'preferences: the page said tickerd is not running on a bus without it (and that no bus can be '
                  f'reached without one), listed the daemon\'s '
                  f'channels {daemon} and applied side picked from them '
                  f'(a bad name typed was refused), {width:.0f} px '
                  f'({columns} columns) and the left box; the shots match Render of side throughout; the '
                  'Shell\'s preferences app opened the installed prefs.js (day-prefs-app.png)')
        finally:
            for process in (driver, empty_bus):
                if process and process.poll() is None:
                    process.kill()
                    process.wait(10)
            for key in ('channel', 'width', 'position'):
                subprocess.run(['gsettings', '--schemadir', os.path.join(installed, 'schemas'), 'reset',
                                'org.gnome.shell.extensions.tickerd', key], check=True)
            self.probe.channel = 'main'
        wait_for(item('main', 'center'), 10, 'the item back on main in the centre')
        self.place = None
        self.settle_place()
        self.read('prefs-reset', count=3)
        self.ctl('remove', 'side', 'home')

def main():
    args = arguments()
    started = time.monotonic()
    probe = None
    try:
        probe = Probe(args)
        wait_for(lambda: probe.call(HELPER, HELPER_PATH, HELPER, 'HideOverview')[0], 120,
                 'the Shell to start and leave its overview')
        if probe.tickerd is None:
            probe.start_tickerd()
        day = Day(probe, args)
        day.height = int(probe.clip()[7])
        steps = {'click': day.click, 'away': day.daemon_away, 'changes': day.changes, 'speed': day.speed,
                 'texts': day.texts, 'suspend': day.suspend, 'preferences': day.preferences}
        for step in os.environ.get('GNOME_DAY_STEPS', ','.join(steps)).split(','):
            steps[step]()
    except Failure as failure:
        print(f'FAIL: {failure}', file=sys.stderr)
        return 1
    finally:
        if probe and probe.tickerd:
            probe.tickerd.terminate()
            probe.tickerd.wait(30)
    print(f'gnome-shell day: all checks hold ({probe.shots} screenshots, {time.monotonic() - started:.0f} s)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
