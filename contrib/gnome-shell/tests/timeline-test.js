// Checks the shared contrib/js/timeline.js against the daemon: for several instants, the frame
// it computes from the published Timeline — text with effects (counters, dots, reveals), offset,
// `cycle`, `dots` and `reveal` extras — equals the daemon's Render.
//
//   gjs tests/timeline-test.js ADDRESS CHANNEL COLUMNS [pending]
//
// Where the text fits, the still text must equal Render's too. With `pending`, the Timeline must
// hold a pending change with its `changed` instant (instants around it and the switch are checked).
// With `effects`, the frames must show counters' digits and raised dots somewhere among the
// instants (the channel holds a counting field and a dots message).
// With `phase`, the Timeline must be phase-locked (`phase` wall-clock) with a pending change:
// instants up to past its settle instant are checked, where the canonical timeline takes over.
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

/** The cells of `text`: each wide cluster's in its first cell and '' in its second. */
function cellsOf(text) {
    const out = [];
    for (const cluster of TimelineMath.clusters(text)) {
        const width = TimelineMath.cellWidth(cluster);
        if (width === 0 && out.length > 0)
            out[out.length - 1] += cluster;
        else
            out.push(cluster, ...Array(Math.max(0, width - 1)).fill(''));
    }
    return out;
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
// The daemon's cells (its tables): emoji of the BMP with Emoji_Presentation or VS16, a modifier or
// a flag in one cluster, symbols without emoji presentation, marks of Hebrew and Latin.
for (const [text, cells] of [['✅', 2], ['⭐', 2], ['☕', 2], ['\u2764\ufe0f', 2], ['\u2764', 1], ['🌡', 1],
    ['👍🏽', 2], ['🇫🇷', 2], ['e\u0301', 1], ['\u05e9\u05b8\u05c1', 1], ['\u200b', 0], ['ab✅ ⭐', 7]])
    check(TimelineMath.cellWidth(text) === cells, `${JSON.stringify(text)} takes ${TimelineMath.cellWidth(text)} cells, not ${cells}`);
check(TimelineMath.clusters('👍🏽🇫🇷e\u0301\u05e9\u05b8').length === 4, `clusters: ${TimelineMath.clusters('👍🏽🇫🇷e\u0301\u05e9\u05b8')}`);

// `nextStart` (a change at the next message boundary): the new side of the switch B shows the
// new tape from cell nextStart, before and after the switch, in both directions.
{
    const base = {tape: 'abcde', gap: '', width: 5, anchor: 0, speed: 1, mode: 'continuous', next: 'VWXYZ',
        nextGap: '', nextSpeed: 1, nextStart: 2};
    const left = new TimelineMath.Timeline({...base, position: 7, switch: 10});
    check(left.frame(0, 4).text === 'cdeX', `left, pending: ${left.frame(0, 4).text}`);
    check(left.frame(3_000_000, 4).text === 'XYZV', `left, switched: ${left.frame(3_000_000, 4).text}`);
    const right = new TimelineMath.Timeline({...base, position: 7, switch: 5, direction: 'right'});
    check(right.frame(0, 4).text === 'cdea', `right, before: ${right.frame(0, 4).text}`);
    check(right.frame(3_000_000, 4).text === 'Wabc', `right, straddling: ${right.frame(3_000_000, 4).text}`);
    check(right.frame(5_000_000, 4).text === 'ZVWa', `right, switched: ${right.frame(5_000_000, 4).text}`);
    const none = new TimelineMath.Timeline({...base, nextStart: undefined, position: 7, switch: 10});
    check(none.frame(0, 4).text === 'cdeV', `absent nextStart is 0: ${none.frame(0, 4).text}`);
}

// Phase-locked (§13): the blank lead-in next to the switch, and the canonical timeline (anchored at
// the epoch) from the settle instant on; an old client ignoring `phase` and `nextLeadIn` would
// show 'cdeV' and 'VWXY' instead (the cut message, then the same stream).
{
    const locked = new TimelineMath.Timeline({tape: 'abcde', gap: '', width: 5, anchor: 0, position: 0, speed: 1,
        mode: 'continuous', phase: 'wall-clock', next: 'VWXYZ', nextGap: '', nextSpeed: 1, nextStart: 0,
        nextLeadIn: 2, switch: 10});
    check(locked.frame(7_000_000, 4).text === 'cde ', `lead-in entering: ${locked.frame(7_000_000, 4).text}`);
    check(locked.frame(9_000_000, 4).text === 'e  X', `lead-in in view: ${locked.frame(9_000_000, 4).text}`);
    check(locked.frame(11_000_000, 4).text === ' XYZ', `lead-in leaving: ${locked.frame(11_000_000, 4).text}`);
    check(locked.settleInstant === 12_000_000, `settle instant ${locked.settleInstant}`);
    check(locked.viewAt(12_000_000) !== locked && locked.viewAt(11_999_999) === locked, 'the canonical timeline takes over at the settle');
    check(locked.frame(12_000_000, 4).text === 'XYZV', `settled: ${locked.frame(12_000_000, 4).text}`);
    check(locked.frame(12_500_000, 4).offset === 0.5, `settled offset: ${locked.frame(12_500_000, 4).offset}`);
}

// One cell more on the left (`before`): a wide character whose first cell has left the view is
// drawn whole in it, where the frame alone shows its second, still visible, cell blank; the
// view's columns are the same, and still text draws nothing before.
{
    const tape = {tape: 'ab東京cd', gap: '', width: 8, anchor: 0, position: 0, speed: 1, mode: 'continuous'};
    const left = new TimelineMath.Timeline(tape);
    const cut = left.frame(3_500_000, 4, 1);
    const whole = left.frame(3_500_000, 4, 1, 1);
    check(cut.text === ' 京cd' && cut.before === 0, `left, the cut cell: ${JSON.stringify(cut)}`);
    check(whole.text === '東京cd' && whole.before === 1 && whole.offset === cut.offset,
        `left, one cell before: ${JSON.stringify(whole)}`);
    const plain = left.frame(2_250_000, 4, 1, 1);
    check(plain.text === 'b東京c' && plain.before === 1 && plain.offset === 0.25,
        `left, a whole cluster before: ${JSON.stringify(plain)}`);
    const right = new TimelineMath.Timeline({...tape, direction: 'right', position: 8});
    const rightCut = right.frame(4_500_000, 4, 1);
    const rightWhole = right.frame(4_500_000, 4, 1, 1);
    check(rightCut.text === ' 京cd' && rightWhole.text === '東京cd' && rightWhole.before === 1,
        `right, one cell before: ${JSON.stringify(rightCut)} ${JSON.stringify(rightWhole)}`);
    // Two cells past the right edge: a wide character whose first cell is partly in view.
    const entering = left.frame(500_000, 4, 2, 1);
    check(left.frame(500_000, 4, 1).text === 'ab東 ' && entering.text === 'dab東京' && entering.before === 1,
        `entering, two cells after: ${JSON.stringify(entering)}`);
    const stillText = new TimelineMath.Timeline({...tape, tape: 'ab東', width: 4}).frame(3_500_000, 6, 1, 1);
    check(stillText.text === 'ab東  ' && stillText.before === 0, `still text: ${JSON.stringify(stillText)}`);
    const bounce = new TimelineMath.Timeline({...tape, mode: 'bounce', delay: 0});
    const bounceStart = bounce.frame(0, 4, 1, 1);
    check(bounceStart.before === 0 && bounceStart.text === 'ab東', `bounce at its start: ${JSON.stringify(bounceStart)}`);
}

// Numbers as §11.2 writes them (no BigInt, no locale).
for (const [value, decimals, grouping, written] of [[1234567, 0, true, '1,234,567'], [2.5, 0, false, '3'],
    [-0.25, 0, false, '0'], [0.125, 2, false, '0.13'], [-1234.5, 1, true, '-1,234.5'], [1000, 0, true, '1,000'],
    [1e12, 6, true, '1,000,000,000,000.000000'], [0, 3, false, '0.000']])
    check(TimelineMath.formatNumber(value, decimals, grouping) === written, `${value} written ${TimelineMath.formatNumber(value, decimals, grouping)}`);

// What a pixel client does after a frame (schedule): animate while something visible moves, else
// wake at the next instant the frame may change, or never.
{
    const plain = {tape: 'hello  •  ', gap: '  •  ', width: 10, anchor: 0, position: 0, speed: 8, mode: 'continuous'};
    const at = 5_000_000;
    const still = new TimelineMath.Timeline(plain);
    const stillNext = still.schedule(at, 20, still.frame(at, 20));
    check(!stillNext.animate && stillNext.at === null, `still text: ${JSON.stringify(stillNext)}`);
    const scrolling = new TimelineMath.Timeline(plain);
    check(scrolling.schedule(at, 3, scrolling.frame(at, 3)).animate, 'scrolling text does not animate');
    const paused = new TimelineMath.Timeline({...plain, paused: 1_000_000});
    const pausedNext = paused.schedule(at, 3, paused.frame(at, 3));
    check(!pausedNext.animate && pausedNext.at === null, `paused: ${JSON.stringify(pausedNext)}`);
    const delayed = new TimelineMath.Timeline({...plain, delay: 9_000_000});
    const delayedNext = delayed.schedule(at, 3, delayed.frame(at, 3));
    check(!delayedNext.animate && delayedNext.at === 9_000_000, `start delay: ${JSON.stringify(delayedNext)}`);
    const pending = new TimelineMath.Timeline({...plain, next: 'bye  •  ', nextGap: '  •  ', nextSpeed: 8, switch: 70,
        changed: 7_000_000});
    const pendingNext = pending.schedule(at, 20, pending.frame(at, 20));
    check(!pendingNext.animate && pendingNext.at === 7_000_000, `pending change, still: ${JSON.stringify(pendingNext)}`);
    const dots = new TimelineMath.Timeline({...plain, tape: 'wait...  •  ', width: 12, layout: 'm w 0 7 0 7 1',
        effects: `d w ${at - 1_000_000} -`});
    // A dot shows raised from the first µs τ of its jump with 8τ(U − τ) > U² (U = 322 ms).
    let raisedFrom = 0;
    while (8 * raisedFrom * (322_000 - raisedFrom) <= 322_000 ** 2)
        raisedFrom++;
    const start = at - 1_000_000;  // at: 1 s into the dots, all resting; dot 0 jumps at 1.15 s
    const resting = dots.schedule(at, 20, dots.frame(at, 20));
    check(!resting.animate && resting.at === start + 1_150_000 + raisedFrom, `resting dots: ${JSON.stringify(resting)}`);
    const raised = start + 1_150_000 + raisedFrom;
    check(dots.frame(raised, 20).text.startsWith('wait\u02d9..') && dots.frame(raised - 1, 20).text.startsWith('wait...'),
        `dot 0 rises at ${raised}: ${dots.frame(raised, 20).text}`);
    const jumping = dots.schedule(raised, 20, dots.frame(raised, 20));
    check(!jumping.animate && jumping.at === start + 1_300_000 + raisedFrom, `jumping dots: ${JSON.stringify(jumping)}`);
    const slow = new TimelineMath.Timeline({...plain, tape: 'n:   •  ', width: 8, layout: 'm n 0 3 0 3 1\nf c 2 3',
        effects: `c c 0 9 ${at} 9000000 linear 0 0 - -`});
    const slowNext = slow.schedule(at + 200_000, 20, slow.frame(at + 200_000, 20));
    check(!slowNext.animate && slowNext.at === at + 500_000, `a slow count: ${JSON.stringify(slowNext)}`);
    check(slow.frame(at + 500_000, 20).text.startsWith('n:1') && slow.frame(at + 499_999, 20).text.startsWith('n:0'),
        'a slow count writes 1 from its half step');
    const typed = new TimelineMath.Timeline({...plain, tape: 'abcd  •  ', width: 9, layout: 'm r 0 4 0 4 1',
        effects: `r r ${at} 4000000`});
    const typedNext = typed.schedule(at + 1_500_000, 20, typed.frame(at + 1_500_000, 20));
    check(!typedNext.animate && typedNext.at === at + 2_000_000 && typed.frame(at + 1_500_000, 20).text.startsWith('a   '),
        `a reveal: ${JSON.stringify(typedNext)} ${typed.frame(at + 1_500_000, 20).text}`);
    const counting = new TimelineMath.Timeline({...plain, tape: 'n:    •  ', width: 9, layout: 'm n 0 4 0 4 1\nf c 2 4',
        effects: `c c 0 99 ${at - 1} 1000000 linear 0 0 - -`});
    const countFrame = counting.frame(at + 500_000, 20);
    check(countFrame.text.startsWith('n:50') && counting.schedule(at + 500_000, 20, countFrame).animate,
        `a counting field: ${JSON.stringify(countFrame.text)}`);
}

const reply = call('org.freedesktop.DBus.Properties', 'Get',
    new GLib.Variant('(ss)', ['io.github.tickerd.Ticker1.Channel', 'Timeline']), new GLib.VariantType('(v)'));
const timeline = new TimelineMath.Timeline(TimelineMath.fromVariant(reply.get_child_value(0).get_variant()));
if (expect === 'pending' || expect === 'reveal' || expect === 'phase')
    check(timeline.next !== null && timeline.next.changedAt !== null, 'no pending change with a changed instant');
if (expect === 'phase')
    check(timeline.phaseLocked && timeline.anchor === 0, `not phase-locked: phase ${timeline.fields.phase}, anchor ${timeline.anchor}`);
const start = GLib.get_real_time();
let checked = 0;
let stillChecked = 0;
const instants = [];
for (let i = 0; i < 40; i++)
    instants.push(start + i * 137_531);
// Effects: dense instants over one dots period, so raised dots and changing digits are met.
if (expect === 'effects') {
    for (let i = 0; i < 60; i++)
        instants.push(start + i * 19_170);
}
if (timeline.next && timeline.next.changedAt !== null)
    instants.push(timeline.next.changedAt - 1, timeline.next.changedAt);
if (timeline.switchInstant !== null)
    instants.push(timeline.switchInstant - 1, timeline.switchInstant);
// Phase-locked: around the settle instant, and every 1/4 s from now to 3 s past it.
const settleAt = timeline.phaseLocked ? timeline.settleInstant : null;
if (settleAt !== null) {
    instants.push(settleAt - 1, settleAt, settleAt + 1);
    for (let at = start; at < settleAt + 3_000_000; at += 250_000)
        instants.push(at);
}
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
let raisedSeen = 0;
const digitsSeen = new Set();
for (const at of instants) {
    const frame = call('io.github.tickerd.Ticker1.Channel', 'Render',
        new GLib.Variant('(ux)', [columns, at]), new GLib.VariantType('(sda{sv})')).recursiveUnpack();
    const expected = frame[2].cycle ?? 0;
    const computed = timeline.cycle(at, columns);
    check(Math.abs(expected - computed) < 1e-9, `at ${at}: daemon cycle ${expected}, timeline.js ${computed}`);
    // The whole frame, effects included.
    const mine = timeline.frame(at, columns);
    check(mine.text === frame[0], `at ${at}: daemon frame ${JSON.stringify(frame[0])}, timeline.js ${JSON.stringify(mine.text)}`);
    check(Math.abs(mine.offset - frame[1]) < 1e-9, `at ${at}: daemon offset ${frame[1]}, timeline.js ${mine.offset}`);
    check(Math.abs(mine.cycle - expected) < 1e-9, `at ${at}: daemon cycle ${expected}, timeline.js frame ${mine.cycle}`);
    check(JSON.stringify(mine.dots ?? null) === JSON.stringify(frame[2].dots ?? null),
        `at ${at}: daemon dots ${JSON.stringify(frame[2].dots)}, timeline.js ${JSON.stringify(mine.dots)}`);
    check(Math.abs((mine.reveal ?? -1) - (frame[2].reveal ?? -1)) < 1e-12,
        `at ${at}: daemon reveal ${frame[2].reveal}, timeline.js ${mine.reveal}`);
    // A frame drawn with one more cell (a pixel client's partial cell) starts with the same cells,
    // but for a wide character cut at the last column: whole in it.
    const wider = timeline.frame(at, columns, 1);
    const widerCells = cellsOf(wider.text);
    const extends_ = cellsOf(mine.text).every((cluster, i, all) => cluster === widerCells[i] ||
        (cluster === ' ' && i === all.length - 1 && TimelineMath.cellWidth(widerCells[i]) === 2));
    check(extends_, `at ${at}: the wider frame ${JSON.stringify(wider.text)} does not extend ${JSON.stringify(mine.text)}`);
    // With one cell more on the left and two past the right (as the GNOME extension draws), the
    // view's columns are the wider frame's, but for a wide character cut at either edge: drawn
    // whole over its blank cell.
    const both = timeline.frame(at, columns, 2, 1);
    const drawn = cellsOf(both.text).slice(both.before);
    const rendered = cellsOf(wider.text);
    const agrees = rendered.every((cluster, i) => cluster === drawn[i] || (cluster === ' ' &&
        ((i === 0 && drawn[0] === '') || (i === rendered.length - 1 && TimelineMath.cellWidth(drawn[i]) === 2))));
    check(agrees && both.before <= (mine.moving ? 1 : 0) && both.offset === mine.offset,
        `at ${at}: the frame with cells before and after ${JSON.stringify(both.text)} (${both.before}) does not hold ${JSON.stringify(wider.text)}`);
    if (mine.text.includes('\u02D9'))
        raisedSeen++;
    for (const m of mine.text.matchAll(/[0-9][0-9,]*/g))
        digitsSeen.add(m[0]);
    // Text that fits: the same still text (also while a change is pending: from its instant on
    // when the new text fits too, else at the switch).
    const still = timeline.stillText(at, columns);
    if (still !== null) {
        stillChecked++;
        check(still === frame[0], `at ${at}: daemon text ${JSON.stringify(frame[0])}, timeline.js ${JSON.stringify(still)}`);
    }
    checked++;
}
if (expect === 'effects') {
    check(raisedSeen > 0, 'no frame shows a raised dot');
    check(digitsSeen.size > 1, `the counter's digits do not change: ${[...digitsSeen]}`);
}
print(`timeline.js: ${checked} instants checked on ${channel} (${timeline.mode}, ${timeline.direction}, ` +
      `${stillChecked} still, ${timeline.next ? 'change pending' : 'no change pending'}` +
      `${timeline.phaseLocked ? `, phase-locked, lead-in ${timeline.next?.leadIn ?? 0}` : ''}), ${failures} failure(s)`);
imports.system.exit(failures === 0 ? 0 : 1);
