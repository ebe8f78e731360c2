// Checks the extension's timeline.js against the daemon: for several instants, the `cycle` the
// module computes from the published Timeline equals the `cycle` extra of the daemon's Render.
//
//   gjs tests/timeline-test.js ADDRESS CHANNEL COLUMNS [pending]
//
// Where the text fits, the still text must equal Render's too. With `pending`, the Timeline must
// hold a pending change with its `changed` instant (instants around it and the switch are checked).
// With `reveal`, the pending change must also bring a revealing message that this viewer sees
// still: its reveal must run from the change (partly typed halfway, whole at its end) before the
// switch, in Render's text and timeline.js's alike.
// Exits 0 when every instant agrees, 1 otherwise (printing each disagreement).
'use strict';

const {Gio, GLib} = imports.gi;
const testsDirectory = GLib.path_get_dirname(imports.system.programPath);
// The shared timeline code lives in contrib/js (the extension's make target copies it in).
imports.searchPath.unshift(`${GLib.path_get_dirname(GLib.path_get_dirname(testsDirectory))}/js`);
const TimelineMath = imports.timeline;

const [address, channel = 'main', columnsText = '20', expect = ''] = ARGV;
const columns = Number(columnsText);
const path = `/io/github/tickerd/Ticker1/channel/${channel}`;
const connection = Gio.DBusConnection.new_for_address_sync(address,
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, null, null);

function call(iface, method, args, type) {
    return connection.call_sync('io.github.tickerd.Ticker1', path, iface, method, args, type,
        Gio.DBusCallFlags.NONE, 10000, null);
}

let failures = 0;
function check(condition, message) {
    if (!condition) {
        failures++;
        print(`FAIL ${message}`);
    }
}

// The easing curves keep their endpoints.
for (const name of Object.keys(TimelineMath.EASINGS)) {
    check(Math.abs(TimelineMath.ease(name, 0)) < 1e-12, `${name}(0) = ${TimelineMath.ease(name, 0)}`);
    check(Math.abs(TimelineMath.ease(name, 1) - 1) < 1e-12, `${name}(1) = ${TimelineMath.ease(name, 1)}`);
}
check(TimelineMath.cellWidth('ab日本🎉') === 8, 'cell widths of ASCII, CJK and emoji');

const reply = call('org.freedesktop.DBus.Properties', 'Get',
    new GLib.Variant('(ss)', ['io.github.tickerd.Ticker1.Channel', 'Timeline']), new GLib.VariantType('(v)'));
const timeline = new TimelineMath.Timeline(TimelineMath.fromVariant(reply.get_child_value(0).get_variant()));
if (expect === 'pending' || expect === 'reveal')
    check(timeline.next !== null && timeline.next.changedAt !== null, 'no pending change with a changed instant');
const start = GLib.get_real_time();
let checked = 0;
let stillChecked = 0;
const instants = [];
for (let i = 0; i < 40; i++)
    instants.push(start + i * 137_531);
if (timeline.next && timeline.next.changedAt !== null)
    instants.push(timeline.next.changedAt - 1, timeline.next.changedAt);
if (timeline.switchInstant !== null)
    instants.push(timeline.switchInstant - 1, timeline.switchInstant);
// The reveals, by this viewer's start: halfway through and at the end of each.
const revealChecks = [];
for (const span of timeline.next?.layout ?? []) {
    const reveal = timeline.revealFor(span.key, columns);
    if (reveal === null)
        continue;
    instants.push(reveal.start - 1, reveal.start + reveal.duration / 2, reveal.start + reveal.duration);
    revealChecks.push(reveal);
}
if (expect === 'reveal') {
    check(revealChecks.length > 0, 'no revealing message in the pending change');
    const switchAt = timeline.switchInstant;
    const nextContent = TimelineMath.Timeline.content(timeline.next.tape, timeline.next.gap);
    for (const reveal of revealChecks) {
        check(reveal.start === timeline.next.changedAt, `the reveal starts at ${reveal.start}, not at the change`);
        check(switchAt === null || reveal.start + reveal.duration < switchAt, 'the switch comes before the reveal ends');
        const render = at => call('io.github.tickerd.Ticker1.Channel', 'Render',
            new GLib.Variant('(ux)', [columns, at]), new GLib.VariantType('(sda{sv})')).recursiveUnpack();
        const half = render(reveal.start + reveal.duration / 2);
        check(half[0].trim().length > 0 && !half[0].startsWith(nextContent) && (half[2].reveal ?? 0) > 0,
            `halfway through the reveal Render shows ${JSON.stringify(half[0])}`);
        check(render(reveal.start + reveal.duration)[0].startsWith(nextContent), 'the reveal does not end whole');
    }
}
for (const at of instants) {
    const frame = call('io.github.tickerd.Ticker1.Channel', 'Render',
        new GLib.Variant('(ux)', [columns, at]), new GLib.VariantType('(sda{sv})')).recursiveUnpack();
    const expected = frame[2].cycle ?? 0;
    const computed = timeline.cycle(at, columns);
    check(Math.abs(expected - computed) < 1e-9, `at ${at}: daemon cycle ${expected}, timeline.js ${computed}`);
    // Text that fits: the same still text (also while a change is pending: from its instant on
    // when the new text fits too, else at the switch).
    const still = timeline.stillText(at, columns);
    if (still !== null) {
        stillChecked++;
        check(still === frame[0], `at ${at}: daemon text ${JSON.stringify(frame[0])}, timeline.js ${JSON.stringify(still)}`);
    }
    checked++;
}
print(`timeline.js: ${checked} instants checked on ${channel} (${timeline.mode}, ${timeline.direction}, ` +
      `${stillChecked} still, ${timeline.next ? 'change pending' : 'no change pending'}), ${failures} failure(s)`);
imports.system.exit(failures === 0 ? 0 : 1);
