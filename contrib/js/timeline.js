// tickerd Timeline math for JavaScript pixel clients (docs/rendering.md): the frames the daemon's
// `Render` gives — text, sub-cell offset, counters, dots and reveals — computed from the channel's
// published `Timeline` with no D-Bus traffic. Plain ECMAScript with no imports, shared by the
// GNOME Shell extension (legacy `imports` module: top-level `var`s are exported; ES module: the
// build appends an `export` line), the Plasma widget (QML `.import`) and the gjs tests.
/* exported Timeline, fromVariant, ease, cellWidth, clusters, EASINGS, formatNumber */
'use strict';

const MICROS = 1e6;

// Easing curves (docs/rendering.md §9), input clamped to [0, 1].
function bounceOut(t) {
    const n = 7.5625, d = 2.75;
    if (t < 1 / d)
        return n * t * t;
    if (t < 2 / d)
        return n * (t - 1.5 / d) ** 2 + 0.75;
    if (t < 2.5 / d)
        return n * (t - 2.25 / d) ** 2 + 0.9375;
    return n * (t - 2.625 / d) ** 2 + 0.984375;
}

var EASINGS = {
    linear: t => t,
    easeInQuad: t => t * t,
    easeOutQuad: t => 1 - (1 - t) ** 2,
    easeInOutQuad: t => t < 0.5 ? 2 * t * t : 1 - (2 - 2 * t) ** 2 / 2,
    easeInCubic: t => t ** 3,
    easeOutCubic: t => 1 - (1 - t) ** 3,
    easeInOutCubic: t => t < 0.5 ? 4 * t ** 3 : 1 - (2 - 2 * t) ** 3 / 2,
    easeOutExpo: t => (1 - 2 ** (-10 * t)) / (1 - 2 ** -10),
    easeOutBounce: bounceOut,
    easeInBounce: t => 1 - bounceOut(1 - t),
    easeInOutBounce: t => t < 0.5 ? (1 - bounceOut(1 - 2 * t)) / 2 : (1 + bounceOut(2 * t - 1)) / 2,
};

/** easing `name` at `t` (clamped); unknown names are linear. */
function ease(name, t) {
    const f = EASINGS[name] || EASINGS.linear;
    return f(Math.min(1, Math.max(0, t)));
}

/**
 * Terminal cells of `text`, approximately (code points, not grapheme clusters): 0 for combining
 * marks and format characters, 2 for East Asian wide and emoji blocks, else 1. Only used for the
 * "fits" rule and the pending tape's width; positions come from the published `width`.
 */
function cellWidth(text) {
    let cells = 0;
    for (const ch of text) {
        const c = ch.codePointAt(0);
        if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) ||
            c === 0xad || (c >= 0x2060 && c <= 0x2064) || (c >= 0x1f3fb && c <= 0x1f3ff))
            continue;
        if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
            (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
            (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd))
            cells += 2;
        else
            cells += 1;
    }
    return cells;
}

/**
 * The extended grapheme clusters of `text`, approximately (this gjs has no Intl.Segmenter): a
 * code point joins the previous cluster when it is a combining mark, a variation selector, an
 * emoji modifier, a zero-width joiner or follows one, or the second of a regional-indicator pair.
 */
function clusters(text) {
    const result = [];
    let joinNext = false;
    let indicators = 0;
    for (const ch of text) {
        const c = ch.codePointAt(0);
        const indicator = c >= 0x1f1e6 && c <= 0x1f1ff;
        const extends_ = (c >= 0x300 && c <= 0x36f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0x200d ||
            (c >= 0x1f3fb && c <= 0x1f3ff) || (c >= 0x20d0 && c <= 0x20ff);
        if (result.length > 0 && (extends_ || joinNext || (indicator && indicators % 2 === 1)))
            result[result.length - 1] += ch;
        else
            result.push(ch);
        indicators = indicator ? indicators + 1 : 0;
        joinNext = c === 0x200d;
    }
    return result;
}

/**
 * The message spans (`m` lines) of a published layout, `[{key, first, end}]` in clusters, with
 * its counter fields (`f` lines) as `spans.fields`, `[{name, first, end}]` (docs/rendering.md §12).
 */
function parseLayout(text) {
    const spans = [];
    spans.fields = [];
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] === 'm' && tokens.length === 7)
            spans.push({key: unescapeToken(tokens[1]), first: Number(tokens[2]), end: Number(tokens[3])});
        else if (tokens[0] === 'f' && tokens.length === 4)
            spans.fields.push({name: unescapeToken(tokens[1]), first: Number(tokens[2]), end: Number(tokens[3])});
    }
    return spans;
}

/** A counter (docs/rendering.md §11.2): a count from `from` to `to` over `duration` µs. */
class Counter {
    constructor(from, to, start, duration, easing, decimals, grouping, prefix, suffix) {
        Object.assign(this, {from, to, start, duration, easing, decimals, grouping, prefix, suffix});
    }

    get endInstant() {
        return this.start + this.duration;
    }

    /** The value at `t` (exactly `to` from the end on, clamped between `from` and `to`). */
    value(t) {
        if (t >= this.endInstant)
            return this.to;
        if (t <= this.start)
            return this.from;
        const v = this.from + (this.to - this.from) * ease(this.easing, (t - this.start) / this.duration);
        return Math.min(Math.max(v, Math.min(this.from, this.to)), Math.max(this.from, this.to));
    }

    /** Whether the written number may still change after `t`. */
    isCounting(t) {
        return t < this.endInstant && this.from !== this.to;
    }

    /** The number written at `t`, without prefix and suffix. */
    number(t) {
        return formatNumber(this.value(t), this.decimals, this.grouping);
    }

    /**
     * The first instant after `t` at which the written number changes, or null. Exact for the
     * monotonic curves (bisection); the bounce curves answer `t + 1` (never late, may be early).
     */
    nextChange(t) {
        if (!this.isCounting(t))
            return null;
        if (this.easing.includes('Bounce'))
            return t + 1;
        const written = this.number(t);
        let a = Math.max(t, this.start) + 1;
        let b = this.endInstant;
        if (this.number(a) !== written)
            return a;
        if (this.number(b) === written)
            return null;
        while (b - a > 1) {
            const middle = Math.floor((a + b) / 2);
            if (this.number(middle) !== written)
                b = middle;
            else
                a = middle;
        }
        return b;
    }
}

/**
 * `value` written as the daemon writes it (§11.2): rounded half away from zero to `decimals`,
 * ASCII digits grouped by three with `,` when `grouping`, `-` only when the rounded key is < 0.
 */
function formatNumber(value, decimals, grouping) {
    const rounded = Math.round(Math.abs(value) * 10 ** decimals);
    if (!Number.isFinite(rounded) || rounded >= 9.0e18)
        return formatNumber(0, decimals, grouping);
    // toFixed(0) writes an integral double exactly (no BigInt: QML's engine has none).
    let digits = rounded.toFixed(0);
    if (digits.length <= decimals)
        digits = '0'.repeat(decimals + 1 - digits.length) + digits;
    const whole = digits.slice(0, digits.length - decimals);
    let grouped = whole;
    if (grouping) {
        grouped = '';
        for (let i = 0; i < whole.length; i++) {
            if (i > 0 && (whole.length - i) % 3 === 0)
                grouped += ',';
            grouped += whole[i];
        }
    }
    const negative = value < 0 && rounded > 0;
    return (negative ? '-' : '') + grouped + (decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '');
}

/** Jumping dots (docs/rendering.md §11.3), from `start`, stopping gracefully at `stop` (or null). */
class DotsEffect {
    constructor(start, stop) {
        this.start = start;
        this.stop = stop;
    }

    get lastWave() {
        if (this.stop === null)
            return null;
        return this.stop < this.start ? -1 : Math.floor((this.stop - this.start) / DotsEffect.PERIOD);
    }

    /** µs into the jump of `dot` at `t`, or null when it rests. */
    timeIntoJump(dot, t) {
        const sinceFirst = t - this.start - dot * DotsEffect.STAGGER;
        if (sinceFirst < 0)
            return null;
        const wave = Math.floor(sinceFirst / DotsEffect.PERIOD);
        const last = this.lastWave;
        if (last !== null && wave > last)
            return null;
        const tau = sinceFirst - wave * DotsEffect.PERIOD;
        return tau < DotsEffect.UP ? tau : null;
    }

    /** The heights of the three dots at `t`, in quarters of the line (§11.3). */
    heights(t) {
        return [0, 1, 2].map(dot => {
            const tau = this.timeIntoJump(dot, t);
            if (tau === null)
                return 0;
            const u = tau / DotsEffect.UP;
            return 4 * u * (1 - u);
        });
    }

    /** Whether `dot` shows raised (`˙`) in a text frame at `t`. */
    isRaised(dot, t) {
        const tau = this.timeIntoJump(dot, t);
        return tau !== null && 8 * tau * (DotsEffect.UP - tau) > DotsEffect.UP * DotsEffect.UP;
    }

    /** Whether a dot is in the air at `t`. */
    isJumping(t) {
        return [0, 1, 2].some(dot => this.timeIntoJump(dot, t) !== null);
    }

    /** The next instant after `t` at which a dot is raised or lowered in a text frame, or null. */
    nextChange(t) {
        const span = DotsEffect.raisedSpan();
        let best = null;
        const last = this.lastWave;
        for (let dot = 0; dot < 3; dot++) {
            const first = this.start + dot * DotsEffect.STAGGER;
            const wave = Math.max(0, Math.floor((t - first) / DotsEffect.PERIOD));
            for (let k = wave; k <= wave + 1 && (last === null || k <= last); k++) {
                for (const offset of [span.first, span.last + 1]) {
                    const at = first + k * DotsEffect.PERIOD + offset;
                    if (at > t && (best === null || at < best))
                        best = at;
                }
            }
        }
        return best;
    }

    /** µs into a jump from which a dot shows raised, and the last such µs (§11.3, in integers). */
    static raisedSpan() {
        if (DotsEffect._span)
            return DotsEffect._span;
        const up = DotsEffect.UP;
        const raised = tau => tau >= 0 && tau < up && 8 * tau * (up - tau) > up * up;
        let first = Math.floor(up * (1 - Math.sqrt(0.5)) / 2);
        while (first > 0 && raised(first - 1))
            first--;
        while (!raised(first))
            first++;
        let last = Math.floor(up * (1 + Math.sqrt(0.5)) / 2);
        while (!raised(last))
            last--;
        while (raised(last + 1))
            last++;
        DotsEffect._span = {first, last};
        return DotsEffect._span;
    }
}
DotsEffect.PERIOD = 1150000;
DotsEffect.STAGGER = 150000;
DotsEffect.UP = 322000;
DotsEffect.RAISED = '\u02D9';

/**
 * The counters and message effects of a published `effects` string (§12):
 * `{counters: Map(name → Counter), dots: Map(key → DotsEffect)}`; reveals are parseReveals's.
 */
function parseEffects(text) {
    const counters = new Map();
    const dots = new Map();
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] === 'c' && tokens.length === 11) {
            counters.set(unescapeToken(tokens[1]), new Counter(Number(tokens[2]), Number(tokens[3]),
                Number(tokens[4]), Number(tokens[5]), tokens[6], Number(tokens[7]), tokens[8] === '1',
                unescapeToken(tokens[9]), unescapeToken(tokens[10])));
        } else if (tokens[0] === 'd' && tokens.length === 4) {
            dots.set(unescapeToken(tokens[1]), new DotsEffect(Number(tokens[2]),
                tokens[3] === '-' ? null : Number(tokens[3])));
        }
    }
    return {counters, dots};
}

/**
 * A tape's clusters and cells, for frames: `clusters`, `widths`, `starts` (cell of each cluster,
 * with the tape width at the end), `contentCount` (clusters that start before the gap), `layout`.
 */
class TapeCells {
    constructor(tape, gap, layout) {
        this.clusters = clusters(tape);
        this.widths = this.clusters.map(cellWidth);
        this.starts = [];
        let cell = 0;
        let units = 0;
        const contentEnd = gap && tape.endsWith(gap) ? tape.length - gap.length : tape.length;
        this.contentCount = 0;
        for (let i = 0; i < this.clusters.length; i++) {
            this.starts.push(cell);
            cell += this.widths[i];
            if (units < contentEnd)
                this.contentCount = i + 1;
            units += this.clusters[i].length;
        }
        this.starts.push(cell);
        this.width = cell;
        this.contentWidth = this.starts[this.contentCount];
        this.layout = layout ?? null;
    }

    /** The first cluster whose start is ≥ `cell`. */
    firstAtOrAfter(cell) {
        let i = 0;
        while (i < this.clusters.length && this.starts[i] < cell)
            i++;
        return i;
    }

    /** The last index ≥ `from` (≤ cluster count) whose start is ≤ `cell`. */
    lastBoundary(cell, from) {
        let i = from;
        while (i < this.clusters.length && this.starts[i + 1] <= cell)
            i++;
        return i;
    }

    /** Stream cells [from, to) of this tape repeated, each cluster through `write(index)` (§3). */
    cells(from, to, write) {
        let out = '';
        if (from >= to)
            return out;
        const count = this.clusters.length;
        if (this.width <= 0)
            return ' '.repeat(to - from);
        const rem = ((from % this.width) + this.width) % this.width;
        let base = from - rem;
        let x = from;
        let index = this.firstAtOrAfter(rem);
        if (rem > 0) {
            while (index < count && this.starts[index] === rem && this.widths[index] === 0)
                index++;
            if (index > 0 && this.starts[index - 1] + this.widths[index - 1] > rem) {
                const end = Math.min(base + this.starts[index], to);
                out += ' '.repeat(end - x);
                x = end;
            }
        }
        while (x < to) {
            if (index === count) {
                index = 0;
                base += this.width;
                continue;
            }
            const runStart = index;
            index = this.lastBoundary(to - base, index);
            x = base + this.starts[index];
            for (let i = runStart; i < index; i++)
                out += write(i);
            if (x < to && index < count) {
                out += ' '.repeat(to - x);
                x = to;
                index++;
            }
        }
        while (index < count && base + this.starts[index] === to && this.widths[index] === 0 && this.starts[index] > 0)
            out += write(index++);
        return out;
    }

    /** The content clusters (still text) through `write`. */
    content(write) {
        let out = '';
        for (let i = 0; i < this.contentCount; i++)
            out += write(i);
        return out;
    }

    /** The pages of this tape's content for `columns` cells (docs/rendering.md §5). */
    pages(columns) {
        if (this._pages && this._pagesColumns === columns)
            return this._pages;
        const list = [];  // not `pages`: QML 5.15 refuses a local named like its method
        let page = {pieces: [], cells: 0, words: 0};
        const place = (first, end, cells) => {
            const needed = page.words === 0 ? cells : page.cells + 1 + cells;
            if (page.words > 0 && needed > columns) {
                list.push(page);
                page = {pieces: [], cells: 0, words: 0};
            }
            page.cells = page.words === 0 ? cells : page.cells + 1 + cells;
            page.pieces.push([first, end]);
            page.words++;
        };
        let index = 0;
        const end = this.contentCount;
        while (index < end) {
            if (this.clusters[index] === ' ') {
                index++;
                continue;
            }
            let pieceStart = index;
            let pieceCells = 0;
            while (index < end && this.clusters[index] !== ' ') {
                const w = this.widths[index];
                if (pieceCells + w > columns && index > pieceStart) {
                    place(pieceStart, index, Math.min(pieceCells, columns));
                    pieceStart = index;
                    pieceCells = 0;
                }
                pieceCells += w;
                index++;
            }
            place(pieceStart, index, Math.min(pieceCells, columns));
        }
        if (page.words > 0 || list.length === 0)
            list.push(page);
        let total = 0;
        for (const p of list) {
            total += Math.max(2 * MICROS, p.words * 300000);
            p.end = total;
        }
        this._pages = list;
        this._pagesColumns = columns;
        return list;
    }

    /** One page through `write`, `{text, cells}`. */
    page(entry, columns, write) {
        let out = '';
        let cells = 0;
        entry.pieces.forEach(([first, end], number) => {
            if (number > 0) {
                out += ' ';
                cells++;
            }
            const pieceCells = this.starts[end] - this.starts[first];
            if (pieceCells > columns - cells) {
                out += ' '.repeat(columns - cells);
                cells = columns;
            } else {
                for (let i = first; i < end; i++)
                    out += write(i);
                cells += pieceCells;
            }
        });
        return {text: out, cells};
    }
}

/**
 * Writes clusters with the effects at real instant `t` for a viewer of `columns` cells (§11):
 * hidden (not yet revealed) clusters as spaces, counter fields as their right-aligned numbers,
 * raised dots as `˙`. Notes what it showed (`shownFields`, `shownDots`, `shownReveals`).
 */
class EffectWriter {
    constructor(timeline, tape, t, columns) {
        this.tape = tape;
        this.t = t;
        this.timeline = timeline;
        this.columns = columns;
        this.shownFields = new Set();
        this.shownDots = new Map();
        this.shownReveals = new Map();
        this.firstDots = null;
        this.firstReveal = null;
        const layout = tape.layout;
        this.plain = !layout || (layout.fields.length === 0 && timeline.reveals.size === 0 &&
            timeline.effects.dots.size === 0);
    }

    write(index) {
        const tape = this.tape;
        if (this.plain)
            return tape.clusters[index];
        const layout = tape.layout;
        const span = layout.find(m => m.first <= index && index < m.end);
        if (span) {
            const reveal = this.timeline.revealFor(span.key, this.columns);
            if (reveal) {
                if (!this.shownReveals.has(span.key))
                    this.shownReveals.set(span.key, {reveal, count: span.end - span.first});
                if (this.firstReveal === null)
                    this.firstReveal = reveal;
                const n = span.end - span.first;
                const elapsed = Math.min(Math.max(0, this.t - reveal.start), reveal.duration);
                if (index >= span.first + Math.floor(elapsed * n / reveal.duration))
                    return ' '.repeat(tape.widths[index]);
            }
        }
        const field = layout.fields.find(f => f.first <= index && index < f.end);
        if (field) {
            this.shownFields.add(field.name);
            const width = field.end - field.first;
            const counter = this.timeline.effects.counters.get(field.name);
            let shown;
            if (!counter) {
                shown = ' '.repeat(width);
            } else {
                const number = counter.number(this.t);
                shown = number.length > width ? '#'.repeat(width) : ' '.repeat(width - number.length) + number;
            }
            if (index - field.first < shown.length && tape.widths[index] === 1)
                return shown[index - field.first];
        }
        if (span) {
            const dots = this.timeline.effects.dots.get(span.key);
            if (dots) {
                if (!this.shownDots.has(span.key))
                    this.shownDots.set(span.key, dots);
                if (this.firstDots === null)
                    this.firstDots = dots;
                const dot = index - (span.end - 3);
                if (dot >= 0 && tape.clusters[index] === '.' && dots.isRaised(dot, this.t))
                    return DotsEffect.RAISED;
            }
        }
        return tape.clusters[index];
    }
}

/**
 * The reveals (`r` lines) of a published `effects` string, by message key: `{start, duration,
 * stillStart, stillColumns}` (the still pair null when absent; docs/rendering.md §11.4, §12).
 */
function parseReveals(text) {
    const reveals = new Map();
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] !== 'r' || (tokens.length !== 4 && tokens.length !== 6))
            continue;
        const still = tokens.length === 6;
        reveals.set(unescapeToken(tokens[1]), {
            start: Number(tokens[2]), duration: Number(tokens[3]),
            stillStart: still ? Number(tokens[4]) : null, stillColumns: still ? Number(tokens[5]) : null,
        });
    }
    return reveals;
}

/** A percent-encoded key of the effects strings (`-` is the empty string). */
function unescapeToken(token) {
    if (token === '-')
        return '';
    // Every byte as %XX, then one UTF-8 decode (no TextDecoder: QML's engine has none).
    let encoded = '';
    for (let i = 0; i < token.length; i++) {
        if (token[i] === '%') {
            encoded += token.slice(i, i + 3);
            i += 2;
        } else {
            encoded += `%${(`0${token.charCodeAt(i).toString(16)}`).slice(-2)}`;
        }
    }
    try {
        return decodeURIComponent(encoded);
    } catch (e) {
        return token;
    }
}

/** `[cell, offset]` of stream position `s`: ⌊s⌋ and s − ⌊s⌋ (an offset that rounds to 1 moves on a cell). */
function split(s) {
    const cell = Math.floor(s);
    const offset = s - cell;
    return offset >= 1 ? [cell + 1, 0] : [cell, offset];
}

/** The plain object of a `Timeline` GLib.Variant (`a{sv}`). */
function fromVariant(variant) {
    return variant.recursiveUnpack();
}

/** One motion (continuous or scroll) of a tape `width` cells wide (StreamMotion in Swift). */
class Motion {
    constructor({mode, anchor, position, speed, delay, easing, loops, sign, width}) {
        Object.assign(this, {mode, anchor, position, speed, delay, easing, loops, sign, width});
    }

    get moveDuration() {
        return Math.max(1, Math.round(this.width / this.speed * MICROS));
    }

    position_(t) {
        const elapsed = t - this.anchor;
        if (this.mode === 'scroll') {
            if (this.width <= 0 || elapsed < 0)
                return this.position;
            const period = this.delay + this.moveDuration;
            const cycle = Math.floor(elapsed / period);
            if (this.loops > 0 && cycle >= this.loops)
                return this.position + this.sign * this.width * this.loops;
            const inCycle = elapsed - cycle * period;
            const p = inCycle < this.delay ? 0 : ease(this.easing, (inCycle - this.delay) / this.moveDuration);
            return this.position + this.sign * this.width * (cycle + p);
        }
        let distance = this.speed * Math.max(0, elapsed - this.delay) / MICROS;
        if (this.loops > 0)
            distance = Math.min(distance, this.width * this.loops);
        return this.position + this.sign * distance;
    }

    /** When the motion reaches stream position `target`, or null if it never does. */
    arrival(target) {
        const distance = (target - this.position) * this.sign;
        if (distance < 0)
            return null;
        if (this.mode === 'scroll') {
            if (this.width <= 0)
                return null;
            const cycles = Math.round(distance / this.width);
            if (this.loops > 0 && cycles > this.loops)
                return null;
            return this.anchor + cycles * (this.delay + this.moveDuration);
        }
        if (this.loops > 0 && distance > this.width * this.loops)
            return null;
        return this.anchor + this.delay + Math.max(0, Math.ceil(distance / this.speed * MICROS));
    }
}

/** A channel's motion as a pure function of time (the Swift `Timeline`, for pixel clients). */
var Timeline = class Timeline {
    /** `fields`: the unpacked `Timeline` dictionary (fromVariant). */
    constructor(fields) {
        this.fields = fields;
        // `wall-clock`: phase-locked, anchored at the epoch (docs/rendering.md §13); absent: local.
        this.phaseLocked = fields.phase === 'wall-clock';
        this.tape = fields.tape;
        this.gap = fields.gap ?? '';
        this.width = Number(fields.width);
        this.anchor = Number(fields.anchor);
        this.position = Number(fields.position);
        this.speed = Number(fields.speed);
        this.mode = fields.mode;
        this.delay = Number(fields.delay ?? 0);
        this.easing = fields.easing ?? 'linear';
        this.loops = Number(fields.loops ?? 0);
        this.direction = fields.direction ?? 'left';
        this.align = fields.align ?? 'left';
        this.paused = fields.paused === undefined ? null : Number(fields.paused);
        this.next = fields.next === undefined ? null : {
            tape: fields.next,
            gap: fields.nextGap ?? '',
            speed: Number(fields.nextSpeed),
            switchPosition: Number(fields.switch),
            changedAt: fields.changed === undefined ? null : Number(fields.changed),
            // The new tape's cell that continues the stream at the switch (absent: 0, §6).
            start: Number(fields.nextStart ?? 0),
            // Phase-locked: blank cells on the new side next to the switch (absent: 0, §13).
            leadIn: Number(fields.nextLeadIn ?? 0),
        };
        if (this.next) {
            this.next.width = cellWidth(this.next.tape);
            this.next.layout = parseLayout(fields.nextLayout);
        }
        this.layout = parseLayout(fields.layout);
        this.reveals = parseReveals(fields.effects);
        this.effects = parseEffects(fields.effects);
        this.sign = this.direction === 'right' ? -1 : 1;
        this.cells = new TapeCells(this.tape, this.gap, this.layout);
        this.nextCells = this.next ? new TapeCells(this.next.tape, this.next.gap, this.next.layout) : null;
    }

    /** The text of the current tape without its gap. */
    static content(tape, gap) {
        return gap && tape.endsWith(gap) ? tape.slice(0, tape.length - gap.length) : tape;
    }

    get content() {
        return Timeline.content(this.tape, this.gap);
    }

    get motion() {
        return new Motion({
            mode: this.mode, anchor: this.anchor, position: this.position, speed: this.speed,
            delay: this.delay, easing: this.easing, loops: this.loops, sign: this.sign, width: this.width,
        });
    }

    /** When the pending tape takes over, or null. */
    get switchInstant() {
        return this.next ? this.motion.arrival(this.next.switchPosition) : null;
    }

    /**
     * The motion after the switch at `switchAt` (nextMotion in Swift): the new tape from the
     * switch position; phase-locked (§13), the current motion when continuous at the same speed,
     * and in scroll mode held until the new tape's first epoch-aligned cycle.
     */
    nextMotion(switchAt) {
        const next = new Motion({
            mode: this.mode, anchor: this.mode === 'scroll' ? switchAt : switchAt - this.delay,
            position: this.next.switchPosition, speed: this.next.speed, delay: this.delay,
            easing: this.easing, loops: this.loops, sign: this.sign, width: this.next.width,
        });
        if (this.phaseLocked && this.mode === 'continuous' && this.next.speed === this.speed) {
            next.anchor = this.anchor;
            next.position = this.position;
        } else if (this.phaseLocked && this.mode === 'scroll') {
            const period = Math.max(1, this.delay + next.moveDuration);
            const below = switchAt - (((switchAt % period) + period) % period);
            next.anchor = below === switchAt ? switchAt : below + period;
        }
        return next;
    }

    /** When the pending change has fully taken effect (settleInstant in Swift), or null. */
    get settleInstant() {
        const switchAt = this.switchInstant;
        if (!this.next || switchAt === null)
            return null;
        const next = this.nextMotion(switchAt);
        const lead = this.next.leadIn;
        if (this.sign > 0) {
            if (!this.phaseLocked)
                return switchAt;
            if (this.mode === 'scroll')
                return Math.max(switchAt, next.anchor);
            return lead > 0 ? next.arrival(this.next.switchPosition + lead) : switchAt;
        }
        const reach = Math.max(0, cellWidth(this.content) - 1) + lead;
        if (this.mode === 'scroll') {
            const step = Math.max(1, this.next.width);
            return next.arrival(this.next.switchPosition - Math.ceil(reach / step) * step);
        }
        return next.arrival(this.next.switchPosition - reach);
    }

    /**
     * The timeline whose frames a viewer sees at `t`: this one, or — phase-locked, once the
     * pending change has settled — the new tape's canonical timeline, anchored at the epoch (§13).
     */
    viewAt(t) {
        if (!this.phaseLocked || !this.next)
            return this;
        const settleAt = this.settleInstant;
        if (settleAt === null || this.effectiveTime(t) < settleAt)
            return this;
        if (!this.settledView) {
            // Object.assign, not spread syntax: QML's engine (Qt 5.15) has no object spread.
            const fields = Object.assign({}, this.fields, {tape: this.next.tape, gap: this.next.gap,
                layout: this.fields.nextLayout, width: this.next.width, anchor: 0, position: 0, speed: this.next.speed});
            for (const key of ['next', 'nextGap', 'nextLayout', 'nextSpeed', 'nextStart', 'nextLeadIn', 'switch', 'changed'])
                delete fields[key];
            this.settledView = new Timeline(fields);
        }
        return this.settledView;
    }

    /** The instant frames are computed for (frozen while paused). */
    effectiveTime(t) {
        return this.paused === null ? t : Math.min(t, this.paused);
    }

    /**
     * Where the stream is at wall-clock microseconds `t`: `{position, origin, width, tape, gap}`
     * with the tape in effect (the pending one after the switch) and the stream cell of its origin.
     */
    streamState(t) {
        const now = this.effectiveTime(t);
        const switchAt = this.switchInstant;
        if (this.next && switchAt !== null && now >= switchAt) {
            const next = this.nextMotion(switchAt);
            return {position: next.position_(now), origin: this.next.switchPosition - this.next.start,
                width: this.next.width, tape: this.next.tape, gap: this.next.gap, cells: this.nextCells,
                motion: next};
        }
        return {position: this.motion.position_(now), origin: 0, width: this.width, tape: this.tape, gap: this.gap,
            cells: this.cells, motion: this.motion};
    }

    /**
     * The tape a viewer of `columns` cells sees at `t`, `{tape, gap}`: the one in effect
     * (streamState), except that while a change is pending a viewer for whom the old and the new
     * content both fit sees the new one from the instant the change was made (`changed`; nothing
     * moves, so it does not wait for the seam — docs/rendering.md §6).
     */
    viewedTape(t, columns) {
        const state = this.streamState(t);
        if (this.next && state.origin === 0 && this.showsChangeStill(columns) && this.next.changedAt !== null &&
            this.switchInstant !== null && this.effectiveTime(t) >= this.next.changedAt)
            return {tape: this.next.tape, gap: this.next.gap, layout: this.next.layout, cells: this.nextCells};
        return {tape: state.tape, gap: state.gap, layout: state.cells.layout, cells: state.cells};
    }

    /**
     * The reveal of message `key` as a viewer of `columns` cells sees it, `{start, duration}`, or
     * null: a message that waited for a seam starts at `stillStart` for viewers of at least
     * `stillColumns` cells (they show the change still), else at `start` (docs/rendering.md §11.4).
     */
    revealFor(key, columns) {
        const reveal = this.reveals.get(key);
        if (!reveal)
            return null;
        const still = reveal.stillStart !== null && columns >= reveal.stillColumns;
        return {start: still ? reveal.stillStart : reveal.start, duration: reveal.duration};
    }

    /**
     * `content` (the viewed tape's content, clusters laid out by `layout`) with the reveals at
     * real instant `t` applied: a cluster not yet revealed shows as one space per cell.
     */
    revealed(content, layout, t, columns) {
        if (this.reveals.size === 0 || !layout)
            return content;
        const parts = clusters(content);
        for (const span of layout) {
            const reveal = this.revealFor(span.key, columns);
            if (!reveal)
                continue;
            const n = span.end - span.first;
            const elapsed = Math.min(Math.max(0, t - reveal.start), reveal.duration);
            const shown = Math.floor(elapsed * n / reveal.duration);
            for (let i = span.first + shown; i < span.end && i < parts.length; i++)
                parts[i] = ' '.repeat(cellWidth(parts[i]));
        }
        return parts.join('');
    }

    /**
     * Whether a reveal of a message in `layout` still changes the text after `t` for a viewer of
     * `columns` cells (not started yet, or under way).
     */
    revealRuns(layout, t, columns) {
        return (layout ?? []).some(span => {
            const reveal = this.revealFor(span.key, columns);
            return reveal !== null && t < reveal.start + reveal.duration;
        });
    }

    /** Whether a viewer of `columns` cells sees both the old and the pending content still. */
    showsChangeStill(columns) {
        return this.next !== null && cellWidth(this.content) <= columns &&
            cellWidth(Timeline.content(this.next.tape, this.next.gap)) <= columns;
    }

    /**
     * The text a viewer of `columns` cells sees at `t` when its content fits (placed by `align`,
     * padded to `columns`), or null when it moves (scrolling or bouncing, or pages).
     */
    stillText(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.stillText(t, columns);
        if (this.mode === 'pages')
            return null;
        const viewed = this.viewedTape(t, columns);
        if (cellWidth(Timeline.content(viewed.tape, viewed.gap)) > columns)
            return null;
        return this.frame(t, columns).text;
    }

    /**
     * Progress in tape widths at `t` (the `cycle` extra of `Render` in continuous and scroll mode):
     * a pixel client shifts the tape left by `(cycle − ⌊cycle⌋) × tapePixelWidth`.
     * `columns`: the viewer's width in cells; text that fits does not move (cycle 0).
     */
    cycle(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.cycle(t, columns);
        if (this.mode === 'pages')
            return this.frame(t, columns).cycle;
        const state = this.streamState(t);
        if (this.mode === 'static' || state.width <= 0)
            return 0;
        if (cellWidth(Timeline.content(state.tape, state.gap)) <= columns)
            return 0;
        if (this.mode === 'bounce')
            return this.bounceProgress(t, cellWidth(this.content) - columns);
        return (state.position - state.origin) / state.width;
    }

    /** Bounce mode: the fraction in [0, 1] of the overflow travelled at `t`. */
    bounceProgress(t, overflow) {
        const e = this.effectiveTime(t) - this.anchor;
        if (overflow <= 0 || e < 0)
            return 0;
        const move = Math.max(1, Math.round(overflow / this.speed * MICROS));
        const period = 2 * (this.delay + move);
        const k = Math.floor(e / period);
        if (this.loops > 0 && k >= this.loops)
            return 0;
        let r = e - k * period;
        if (r < this.delay)
            return 0;
        r -= this.delay;
        if (r < move)
            return ease(this.easing, r / move);
        r -= move;
        if (r < this.delay)
            return 1;
        r -= this.delay;
        return 1 - ease(this.easing, r / move);
    }

    /**
     * The frame a viewer of `columns` cells sees at wall-clock microseconds `t`, as the daemon's
     * `Render(columns, t)` gives it (docs/rendering.md §4, effects §11): `{text, offset, cycle,
     * dots, reveal, moving}`. `extra` more cells are drawn past the right edge where the text
     * scrolls (a pixel client shows part of one more cell while the text is between cells); the
     * "fits" rule and the reveals still use `columns`. `moving` is true when the text scrolls.
     * `before` more cells are drawn before the first column where the text scrolls (a wide
     * character whose first cell has left the view is then drawn whole, its second cell still
     * in view); the result's `before` says how many were drawn (0 for still text), so column k of
     * the view is cell `before + k` of `text`, `offset` unchanged.
     */
    frame(t, columns, extra = 0, before = 0) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.frame(t, columns, extra, before);
        const c = Math.max(0, columns);
        const now = this.effectiveTime(t);
        const viewed = this.viewedTape(t, c);
        const current = viewed.cells;
        const writers = [];
        const writer = tape => {
            const w = new EffectWriter(this, tape, t, c);
            writers.push(w);
            return i => w.write(i);
        };
        let text = '';
        let offset = 0;
        let cycle = 0;
        let moving = false;
        let drawnBefore = 0;
        const still = () => {
            const spare = c - current.contentWidth;
            const left = this.align === 'right' ? spare : this.align === 'center' ? Math.floor(spare / 2) : 0;
            return ' '.repeat(left) + current.content(writer(current)) + ' '.repeat(spare - left);
        };
        if (this.mode === 'static') {
            if (current.contentWidth <= c)
                text = still();
            else if (c > 0)
                text = `${current.cells(0, c - 1, writer(current))}\u2026`;
        } else if (this.mode === 'pages') {
            if (c > 0) {
                const pages = current.pages(c);
                const {index, progress} = this.pageIndex(pages, now);
                cycle = progress;
                const page = current.page(pages[index], c, writer(current));
                const spare = c - page.cells;
                const left = this.align === 'right' ? spare : this.align === 'center' ? Math.floor(spare / 2) : 0;
                text = ' '.repeat(left) + page.text + ' '.repeat(spare - left);
            }
        } else if (current.contentWidth <= c) {
            text = still();
        } else if (this.mode === 'bounce') {
            const p = this.bounceProgress(t, current.contentWidth - c);
            const overflow = current.contentWidth - c;
            const [cell, off] = split(this.sign > 0 ? overflow * p : overflow * (1 - p));
            offset = off;
            // Only content cells: none before the first, none past the last.
            drawnBefore = Math.min(before, cell);
            text = current.cells(cell - drawnBefore, cell + c + (off > 0 ? Math.min(extra, overflow - cell) : 0),
                writer(current));
            cycle = p;
            moving = true;
        } else {
            const state = this.streamState(t);
            const [cell, off] = split(state.position);
            offset = off;
            drawnBefore = before;
            text = this.streamCells(cell - before, cell + c + extra, writer);
            cycle = state.width > 0 ? (state.position - state.origin) / state.width : 0;
            moving = true;
        }
        const dotsShown = writers.find(w => w.firstDots !== null);
        const revealShown = writers.find(w => w.firstReveal !== null);
        const shown = {fields: new Set(), dots: new Map(), reveals: new Map()};
        for (const w of writers) {
            w.shownFields.forEach(name => shown.fields.add(name));
            w.shownDots.forEach((v, k) => shown.dots.set(k, v));
            w.shownReveals.forEach((v, k) => shown.reveals.set(k, v));
        }
        const result = {text, offset, cycle, moving, before: drawnBefore, shown};
        if (dotsShown)
            result.dots = dotsShown.firstDots.heights(t);
        if (revealShown) {
            const r = revealShown.firstReveal;
            result.reveal = Math.min(Math.max(0, t - r.start), r.duration) / r.duration;
        }
        return result;
    }

    /**
     * Stream cells [from, to): while a change is pending (before and after its switch), the
     * composite stream of §6 — the new side of the switch B shows new-tape cell
     * (x − B + nextStart) mod W_new.
     */
    streamCells(from, to, writer) {
        if (!this.next || this.switchInstant === null)
            return this.cells.cells(from, to, writer(this.cells));
        const seam = this.next.switchPosition;
        const newOrigin = seam - this.next.start;
        const [lower, lowerOrigin, upper, upperOrigin] = this.sign > 0
            ? [this.cells, 0, this.nextCells, newOrigin] : [this.nextCells, newOrigin, this.cells, 0];
        // The lead-in (phase-locked, §13): blank cells on the new side next to the seam.
        const lead = this.next.leadIn;
        const [blankStart, blankEnd] = this.sign > 0 ? [seam, seam + lead] : [seam - lead, seam];
        let out = '';
        if (from < blankStart)
            out += lower.cells(from - lowerOrigin, Math.min(to, blankStart) - lowerOrigin, writer(lower));
        const blank = Math.min(to, blankEnd) - Math.max(from, blankStart);
        if (blank > 0)
            out += ' '.repeat(blank);
        if (to > blankEnd)
            out += upper.cells(Math.max(from, blankEnd) - upperOrigin, to - upperOrigin, writer(upper));
        return out;
    }

    /** Pages mode: the page shown at effective instant `now`, `{index, progress}`. */
    pageIndex(pages, now) {
        const elapsed = now - this.anchor;
        const total = pages[pages.length - 1].end;
        if (elapsed < 0 || total <= 0)
            return {index: 0, progress: 0};
        const cycles = Math.floor(elapsed / total);
        if (this.loops > 0 && cycles >= this.loops)
            return {index: 0, progress: this.loops};
        const inCycle = elapsed - cycles * total;
        const index = pages.findIndex(p => p.end > inCycle);
        return {index: Math.max(0, index), progress: elapsed / total};
    }

    /**
     * What a pixel client of `columns` cells must do after drawing `frame` at `t`:
     * `{animate: true}` while the text moves (scrolls or bounces) or a shown effect changes the
     * text again within about a display frame (a fast count), else `{animate: false, at}` with
     * the next instant the frame may change — a counter's next number, a dot raised or lowered,
     * a cluster revealed, a pending change, a hold's end, a page (null: never, until the Timeline
     * changes). Never late; it may be early.
     */
    schedule(t, columns, frame) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.schedule(t, columns, frame);
        const now = this.effectiveTime(t);
        let at = null;
        const consider = instant => {
            if (instant !== null && instant > t && (at === null || instant < at))
                at = instant;
        };
        if (frame.moving && this.paused === null) {
            const state = this.streamState(t);
            const motionAt = this.mode === 'bounce' ? this.bounceNextMove(t, columns) : this.motionNextMove(state.motion, now);
            if (motionAt === t)
                return {animate: true};
            consider(motionAt);
        }
        // Effects change the text at instants: a timeout waits for the next one, unless it
        // comes within about a display frame (then the frame clock runs).
        const soon = instant => instant !== null && instant - t < 20000;
        for (const name of frame.shown.fields) {
            const counter = this.effects.counters.get(name);
            const next = counter ? counter.nextChange(t) : null;
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        for (const dots of frame.shown.dots.values()) {
            const next = dots.nextChange(t);
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        for (const {reveal, count} of frame.shown.reveals.values()) {
            const elapsed = Math.min(Math.max(0, t - reveal.start), reveal.duration);
            const shown = Math.floor(elapsed * count / reveal.duration);
            if (count <= 0 || shown >= count)
                continue;
            const next = Math.max(t + 1, reveal.start + Math.ceil((shown + 1) * reveal.duration / count));
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        if (this.paused === null) {
            // A pending change: shown at its instant to still viewers, else at the switch.
            if (this.next) {
                if (this.next.changedAt !== null && this.showsChangeStill(columns))
                    consider(this.next.changedAt);
                consider(this.switchInstant);
                // Phase-locked: the canonical timeline takes over at the settle instant (§13).
                if (this.phaseLocked)
                    consider(this.settleInstant);
            }
            if (this.mode === 'pages' && columns > 0) {
                const pages = this.viewedTape(t, columns).cells.pages(columns);
                const total = pages[pages.length - 1].end;
                const elapsed = now - this.anchor;
                if (elapsed < 0) {
                    consider(this.anchor);
                } else if (!(this.loops > 0 && Math.floor(elapsed / total) >= this.loops)) {
                    const base = now - (elapsed % total);
                    const page = pages.find(p => p.end > elapsed % total);
                    consider(base + page.end);
                }
            }
        }
        return {animate: false, at};
    }

    /** Continuous and scroll: `now` while the stream moves at `now`, else when it next moves (or null). */
    motionNextMove(motion, now) {
        const elapsed = now - motion.anchor;
        if (motion.mode === 'scroll') {
            if (motion.width <= 0)
                return null;
            if (elapsed < 0)
                return motion.anchor;
            const period = motion.delay + motion.moveDuration;
            const k = Math.floor(elapsed / period);
            if (motion.loops > 0 && k >= motion.loops)
                return null;
            const inCycle = elapsed - k * period;
            return inCycle < motion.delay ? motion.anchor + k * period + motion.delay : now;
        }
        if (motion.speed <= 0)
            return null;
        if (elapsed < motion.delay)
            return motion.anchor + motion.delay;
        if (motion.loops > 0 && motion.speed * (elapsed - motion.delay) / MICROS >= motion.width * motion.loops)
            return null;
        return now;
    }

    /** Bounce: `t` while the text moves, else when it next moves (or null). */
    bounceNextMove(t, columns) {
        const overflow = this.viewedTape(t, columns).cells.contentWidth - columns;
        const e = this.effectiveTime(t) - this.anchor;
        if (overflow <= 0)
            return null;
        if (e < 0)
            return this.anchor;
        const move = Math.max(1, Math.round(overflow / this.speed * MICROS));
        const half = this.delay + move;
        const k = Math.floor(e / (2 * half));
        if (this.loops > 0 && k >= this.loops)
            return null;
        const r = e - k * 2 * half;
        const inHalf = r % half;
        return inHalf < this.delay ? t + (this.delay - inHalf) : t;
    }

    /** Whether anything can move after `t` (false: the widget may stop its frame clock). */
    isMoving(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.isMoving(t, columns);
        // Still text types in a reveal (effects follow the real time, even while paused).
        const viewed = this.viewedTape(t, columns);
        if (this.mode !== 'pages' && cellWidth(Timeline.content(viewed.tape, viewed.gap)) <= columns &&
            this.revealRuns(viewed.layout, t, columns))
            return true;
        if (this.paused !== null || this.mode === 'static' || this.mode === 'pages')
            return false;
        const state = this.streamState(t);
        if (cellWidth(Timeline.content(state.tape, state.gap)) <= columns) {
            // Still text waits for a pending change: at its instant or at the switch.
            if (this.next === null)
                return false;
            return !(this.showsChangeStill(columns) && this.next.changedAt !== null &&
                this.effectiveTime(t) >= this.next.changedAt);
        }
        if (this.loops > 0)
            return this.cycle(t, columns) !== this.cycle(t + 3600 * MICROS, columns);
        return true;
    }
};
