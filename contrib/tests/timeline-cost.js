// What the shared Timeline rules (contrib/js/timeline.js) cost a panel, by tape length: reading a
// new Timeline (what the GNOME extension and the Plasma widget do at every PropertiesChanged) and
// one display frame's work (what the extension's tick does: viewedTape, frame with the cells
// partly in view, schedule).
//
//   gjs contrib/tests/timeline-cost.js [DIR] [MESSAGES...]
//
// DIR: the folder holding timeline.js (default: contrib/js beside this script), so a previous
// version can be timed in the same run: `git show REV:contrib/js/timeline.js > /tmp/old/timeline.js`.
// MESSAGES: tape lengths in messages of ~61 characters (default 10 100 1000). The frames are
// spread over one whole cycle of the tape at 8 cells/s, 48 columns. Prints one line per case:
// settled, a change waiting for its seam, and settled with a counter in the first message (so
// every frame goes through the effects' writer and the message layout).
'use strict';

const {GLib} = imports.gi;

const here = GLib.path_get_dirname(imports.system.programPath);
const directory = ARGV[0] ?? `${GLib.path_get_dirname(here)}/js`;
imports.searchPath.unshift(directory);
const TimelineMath = imports.timeline;

const separator = '  \u2022  ';
const columns = 48;
const speed = 8;
const reads = 10;
const frames = 600;

/** Microseconds per call of `body` over `count` calls, after as many untimed (the JIT warms up). */
function timed(count, body) {
    for (let i = 0; i < count; i++)
        body(i);
    const start = GLib.get_monotonic_time();
    for (let i = 0; i < count; i++)
        body(i);
    return (GLib.get_monotonic_time() - start) / count;
}

function measure(messages) {
    const texts = [];
    for (let i = 0; i < messages; i++)
        texts.push(`Headline number ${i}: markets, weather and the news of the day`);
    const tape = texts.join(separator) + separator;
    const width = TimelineMath.cellWidth(tape);
    const now = GLib.get_real_time();
    const settled = {tape, gap: separator, width, anchor: now, position: 0, speed, mode: 'continuous'};
    const next = ['A new headline arrives on the tape'].concat(texts).join(separator) + separator;
    // The switch a whole cycle away, so every frame below is still before it.
    const pending = Object.assign({}, settled, {next, nextGap: separator, nextSpeed: speed,
        switch: width, nextStart: 0, changed: now});
    // The layout of docs/rendering.md §12: each message's clusters (all one cell wide here).
    const lines = [];
    let first = 0;
    texts.forEach((text, i) => {
        lines.push(`m h${i} ${first} ${first + text.length} ${first} ${first + text.length} 1`);
        first += text.length + separator.length;
    });
    lines.push('f count 16 19');
    const counting = Object.assign({}, settled, {layout: lines.join('\n'),
        effects: `c count 0 999 ${now} 3600000000 linear 0 0 - -`});
    const cycle = width / speed * 1e6;
    for (const [label, fields] of [['settled', settled], ['change pending', pending], ['counting', counting]]) {
        let timeline = null;
        const read = timed(reads, () => {
            timeline = new TimelineMath.Timeline(fields);
        });
        const tick = timed(frames, i => {
            const t = now + Math.floor(i * cycle / frames);
            timeline.viewedTape(t, columns);
            const frame = timeline.frame(t, columns, 2, 1);
            timeline.schedule(t, columns, frame);
        });
        print(`${messages} messages (${width} cells), ${label}: read the Timeline ${(read / 1000).toFixed(2)} ms, ` +
            `one frame ${tick.toFixed(1)} µs`);
    }
}

for (const messages of ARGV.length > 1 ? ARGV.slice(1).map(Number) : [10, 100, 1000])
    measure(messages);
