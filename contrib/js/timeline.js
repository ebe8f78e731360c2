// tickerd Timeline math for GJS (docs/rendering.md): where the stream is at any instant, computed
// from the channel's published `Timeline` with no D-Bus traffic. No Shell imports, so it also runs
// under plain `gjs` (see ../tests/timeline-test.js). Legacy module: top-level `var`s are exported.
/* exported Timeline, fromVariant, ease, cellWidth, clusters, EASINGS */
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

/** The message spans (`m` lines) of a published layout: `[{key, first, end}]` in clusters. */
function parseLayout(text) {
    const spans = [];
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] === 'm' && tokens.length === 7)
            spans.push({key: unescapeToken(tokens[1]), first: Number(tokens[2]), end: Number(tokens[3])});
    }
    return spans;
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
    const bytes = [];
    for (let i = 0; i < token.length; i++) {
        if (token[i] === '%') {
            bytes.push(parseInt(token.slice(i + 1, i + 3), 16));
            i += 2;
        } else {
            bytes.push(token.charCodeAt(i));
        }
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
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
        };
        if (this.next) {
            this.next.width = cellWidth(this.next.tape);
            this.next.layout = parseLayout(fields.nextLayout);
        }
        this.layout = parseLayout(fields.layout);
        this.reveals = parseReveals(fields.effects);
        this.sign = this.direction === 'right' ? -1 : 1;
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
            const next = new Motion({
                mode: this.mode, anchor: this.mode === 'scroll' ? switchAt : switchAt - this.delay,
                position: this.next.switchPosition, speed: this.next.speed, delay: this.delay,
                easing: this.easing, loops: this.loops, sign: this.sign, width: this.next.width,
            });
            return {position: next.position_(now), origin: this.next.switchPosition, width: this.next.width,
                tape: this.next.tape, gap: this.next.gap};
        }
        return {position: this.motion.position_(now), origin: 0, width: this.width, tape: this.tape, gap: this.gap};
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
            return {tape: this.next.tape, gap: this.next.gap, layout: this.next.layout};
        return {tape: state.tape, gap: state.gap, layout: state.origin === 0 ? this.layout : this.next.layout};
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
        if (this.mode === 'pages')
            return null;
        const viewed = this.viewedTape(t, columns);
        const content = Timeline.content(viewed.tape, viewed.gap);
        const spare = columns - cellWidth(content);
        if (spare < 0)
            return null;
        const left = this.align === 'right' ? spare : this.align === 'center' ? Math.floor(spare / 2) : 0;
        return ' '.repeat(left) + this.revealed(content, viewed.layout, t, columns) + ' '.repeat(spare - left);
    }

    /**
     * Progress in tape widths at `t` (the `cycle` extra of `Render` in continuous and scroll mode):
     * a pixel client shifts the tape left by `(cycle − ⌊cycle⌋) × tapePixelWidth`.
     * `columns`: the viewer's width in cells; text that fits does not move (cycle 0).
     */
    cycle(t, columns) {
        const state = this.streamState(t);
        if (this.mode === 'static' || this.mode === 'pages' || state.width <= 0)
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

    /** Whether anything can move after `t` (false: the widget may stop its frame clock). */
    isMoving(t, columns) {
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
