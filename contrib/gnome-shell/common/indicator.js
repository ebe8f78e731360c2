// The tickerd top-bar item, shared by both forms of the GNOME Shell extension (43–44 legacy
// imports, 45+ ES modules): each form passes in the modules it imported, so this file imports
// nothing itself. (The ES-module build appends `export {makeIndicator};`.)
//
// It reads the channel's `Timeline` property over Gio.DBus once, re-reads it on PropertiesChanged,
// and draws the very frame the daemon's `Render` would give (contrib/js/timeline.js: counters, dots
// and reveals included) in one label of a monospace font, shifted by the frame's sub-cell offset.
// While the text moves the frame has one cell more on the left and two past the right, under the
// clip: a wide character half out of view is drawn whole there and slides out (or in) like any
// other, where the columns alone would show its visible half blank. Widths are measured in the
// label's own font; the "fits" rule and the speed in pixels follow from that font's real cell
// width. A character that font does not draw as its own cells (CJK and emoji come from fallback
// fonts, whose advances are not two cells and whose taller lines would move the whole line's
// baseline) is left as spaces in that label and drawn by a label of its own, centred in its cells
// on the monospace font's baseline: every character sits in the cells Render gives it and nothing
// moves up or down as such a character scrolls in.
// The labels share one strip; per display frame only the strip's translation changes (a
// repaint, no relayout); the texts change when the frame's text does.
//
// When the daemon's name goes away (an upgrade, `systemctl restart`, a crash the unit restarts)
// the item keeps drawing from the Timeline it has (its frames are a pure function of time) for a
// grace period of `GRACE_MS`: a daemon back within it is read again as on any change (normally the
// same Timeline: nothing visible happens, no blink, no relayout of the bar); one that is not back by
// then hides the item, as an emptied channel does. Losing the bus connection itself hides at once.
//
// The frame clock runs only while something visible moves (checked after every frame): text that
// fits, a paused channel, an empty channel and a hold start no clock; the next instant the
// timeline says the frame may change is waited for with one timeout.
//
// A primary click asks the daemon which message is under the pointer in the frame drawn
// (`MessageAt`, for the instant that frame is for), activates it (`Activate`) and opens its link,
// if it has one, with the default handler; nothing happens over a separator or the gap.
/* exported makeIndicator */
'use strict';

// How long the item keeps drawing after the daemon's name goes away (docs/DESIGN.md).
const GRACE_MS = 2000;
/** The part of the Channel interface the item uses, under `interfaceName`. */
const channelXML = interfaceName => `<node><interface name="${interfaceName}">
  <property name="Text" type="s" access="read"/>
  <property name="Timeline" type="a{sv}" access="read"/>
  <method name="Subscribe"><arg name="options" type="a{sv}" direction="in"/></method>
  <method name="Unsubscribe"/>
  <method name="MessageAt"><arg name="columns" type="u" direction="in"/><arg name="column" type="u" direction="in"/>
    <arg name="at" type="x" direction="in"/><arg name="id" type="s" direction="out"/><arg name="link" type="s" direction="out"/></method>
  <method name="Activate"><arg name="id" type="s" direction="in"/></method>
</interface></node>`;

// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, ... and their
// presentation forms), each drawn in a label of its own (see `_measureCluster`).
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * The top-bar item class, built from the modules the caller imported:
 * `{Clutter, Gio, GLib, GObject, Pango, St, PanelMenu, TimelineMath, Names, log, logError}` (Names:
 * names.js's `TickerdNames`).
 * `new Indicator({channel, widthPx})` shows channel `channel` in `widthPx` pixels (at most).
 */
function makeIndicator(modules) {
    const {Clutter, Gio, GLib, GObject, Pango, St, PanelMenu, TimelineMath, Names, log, logError} = modules;

    return GObject.registerClass(
    class TickerdIndicator extends PanelMenu.Button {
        _init(options = {}) {
            super._init(0.0, 'tickerd', true);
            this._channel = options.channel ?? 'main';
            this._widthPx = options.widthPx ?? 360;
            this._clip = new St.Widget({
                clip_to_allocation: true, y_align: Clutter.ActorAlign.CENTER, style_class: 'tickerd-clip',
                layout_manager: new Clutter.FixedLayout(),
            });
            // The strip moves by the frame's offset; it holds the monospace label and the labels
            // of the characters drawn on their own (`_wide`, reused from frame to frame).
            this._strip = new St.Widget({layout_manager: new Clutter.FixedLayout()});
            this._label = this._newLabel();
            this._strip.add_child(this._label);
            this._wide = [];
            this._clip.add_child(this._strip);
            this.add_child(this._clip);
            this._timeline = null;
            this._cellPx = 0;
            this._font = null;
            this._fontName = '';
            this._line = null;
            this._metrics = new Map();
            this._shift = 0;
            this._before = 0;
            this._columns = 0;
            this._declared = 0;
            this._text = null;
            this._wakeId = 0;
            this._graceId = 0;
            this._closed = false;
            this._drawnAt = 0;
            this._drawnMoving = false;
            this.visible = false;

            // Redraws at the display's frame rate while something visible moves (started and
            // stopped after each frame); its own duration is irrelevant, it repeats for ever.
            this._clock = new Clutter.Timeline({actor: this, duration: 1000, repeat_count: -1});
            this._clockId = this._clock.connect('new-frame', () => this._tick());
            this._styleId = this._label.connect('style-changed', () => this._measure());
            this._pressId = this.connect('button-press-event', (actor, event) => this._press(event));

            const info = Gio.DBusInterfaceInfo.new_for_xml(channelXML(Names.channelInterface));
            this._proxy = new Gio.DBusProxy({
                g_bus_type: Gio.BusType.SESSION, g_name: Names.busName,
                g_object_path: Names.channelPath(this._channel),
                g_interface_name: Names.channelInterface, g_interface_info: info,
                g_flags: Gio.DBusProxyFlags.DO_NOT_AUTO_START,
            });
            this._cancellable = new Gio.Cancellable();
            this._proxy.init_async(GLib.PRIORITY_DEFAULT, this._cancellable, (proxy, result) => {
                try {
                    proxy.init_finish(result);
                } catch (e) {
                    if (!e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        logError(e, 'tickerd: cannot reach the channel');
                    return;
                }
                this._propertiesId = proxy.connect('g-properties-changed', () => this._update());
                // The session ending: no name owner will ever be announced again; hide at once.
                this._connection = proxy.g_connection;
                this._closedId = this._connection.connect('closed', () => {
                    this._closed = true;
                    this._update();
                });
                this._ownerId = proxy.connect('notify::g-name-owner', () => {
                    // A (re)started daemon has no record of our width: declare it again.
                    this._declared = 0;
                    this._update();
                });
                this._update();
            });
        }

        /** A label of the item's monospace font, one line, never ellipsized. */
        _newLabel() {
            const label = new St.Label({style_class: 'tickerd-text'});
            label.clutter_text.ellipsize = Pango.EllipsizeMode.NONE;
            label.clutter_text.single_line_mode = true;
            return label;
        }

        /**
         * The cell width of the label's font (it is monospace: every cell is as wide), measured
         * on a long run so fractional advances count; then the clip's width and the columns. The
         * clip is one line of that font high.
         */
        _measure() {
            // The theme node gives the label's font even while the item is hidden (unmapped
            // actors get no style-changed), so a hidden item can measure before it shows.
            let font = null;
            try {
                font = this._label.get_theme_node().get_font();
            } catch (e) {
                return;
            }
            const layout = this._label.clutter_text.create_pango_layout('0'.repeat(100));
            if (font)
                layout.set_font_description(font);
            const [width, height] = layout.get_size();
            const cell = width / Pango.SCALE / 100;
            const name = font?.to_string() ?? '';
            if (!(cell > 0) || (cell === this._cellPx && name === this._fontName))
                return;
            this._cellPx = cell;
            this._font = font;
            this._fontName = name;
            this._line = {baseline: layout.get_baseline(), height};
            this._metrics.clear();
            this._columns = Math.max(1, Math.floor(this._widthPx / cell));
            this._clip.width = Math.ceil(this._columns * cell);
            this._clip.height = Math.ceil(height / Pango.SCALE);
            log(`tickerd: ${this._columns} columns of ${cell} px`);
            this._declare();
            this._text = null;
            if (this._timeline)
                this._tick();
        }

        /**
         * Tells the daemon this viewer's width (Subscribe with fps 0: no Frame signals). An older
         * daemon refuses fps 0 (InvalidOption); the extension then carries on without declaring.
         */
        _declare() {
            const columns = this._cellPx > 0 ? Math.ceil(this._widthPx / this._cellPx) + 1 : 0;
            if (!this._proxy?.g_name_owner || columns === 0 || columns === this._declared)
                return;
            this._declared = columns;
            const options = {columns: new GLib.Variant('u', columns), fps: new GLib.Variant('d', 0)};
            this._proxy.call('Subscribe', new GLib.Variant('(a{sv})', [options]), Gio.DBusCallFlags.NONE, -1,
                this._cancellable, (proxy, result) => {
                    try {
                        proxy.call_finish(result);
                    } catch (e) {
                        // An older daemon refuses fps 0 (InvalidOption); a daemon going away
                        // leaves the call unanswered (it is declared again when one comes back).
                        const remote = Gio.DBusError.get_remote_error(e) ?? '';
                        const expected = e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED) ||
                            ['.InvalidOption', '.NoReply', '.ServiceUnknown', '.UnknownMethod'].some(end => remote.endsWith(end));
                        if (!expected)
                            logError(e, 'tickerd: cannot declare the width');
                        if (remote.endsWith('.NoReply') || remote.endsWith('.ServiceUnknown'))
                            this._declared = 0;
                    }
                });
        }

        /**
         * Reads the Timeline and Text again (a change, or the daemon's name coming or going). While
         * the name is away with a Timeline in hand, the item keeps drawing it for `GRACE_MS`, then
         * drops it and hides; a name back within it is read as on any change.
         */
        _update() {
            const owner = this._closed ? null : this._proxy.g_name_owner;
            if (!owner && !this._closed && this._timeline !== null) {
                if (this._graceId === 0) {
                    this._graceId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, GRACE_MS, () => {
                        this._graceId = 0;
                        this._timeline = null;
                        this._update();
                        return GLib.SOURCE_REMOVE;
                    });
                    GLib.Source.set_name_by_id(this._graceId, '[tickerd] grace');
                }
                return;
            }
            this._cancelGrace();
            const variant = owner ? this._proxy.get_cached_property('Timeline') : null;
            this._timeline = null;
            if (variant) {
                try {
                    this._timeline = new TimelineMath.Timeline(TimelineMath.fromVariant(variant));
                } catch (e) {
                    logError(e, 'tickerd: unreadable Timeline');
                }
            }
            const text = owner ? this._proxy.get_cached_property('Text') : null;
            this.accessible_name = text ? text.unpack() : '';
            this._declare();
            this._text = null;
            this._tick();
        }

        /** Draws the frame of this instant, then runs the clock or waits for the next change. */
        _tick() {
            if (this._cellPx === 0)
                this._measure();
            const timeline = this._timeline;
            const now = GLib.get_real_time();
            // Shown while the text this viewer sees has something in it; an emptied channel's
            // removal may still wait for its switch, which the item then waits for.
            let shown = false;
            if (timeline !== null && this._columns > 0) {
                const viewed = timeline.viewedTape(now, this._columns);
                shown = TimelineMath.Timeline.content(viewed.tape, viewed.gap).length > 0;
            }
            if (this.visible !== shown)
                this.visible = shown;
            if (!shown) {
                const switchAt = timeline?.switchInstant ?? null;
                this._sleep(switchAt !== null && switchAt > now && timeline.paused === null ? switchAt : null);
                return;
            }
            // One cell before the first column and two past the last: the cells partly in view.
            const frame = timeline.frame(now, this._columns, 2, 1);
            this._drawnAt = now;
            this._drawnMoving = frame.moving;
            this._before = frame.before;
            if (frame.text !== this._text)
                this._setText(frame.text);
            this._shift = -Math.round((frame.before + frame.offset) * this._cellPx);
            if (this._strip.translation_x !== this._shift)
                this._strip.translation_x = this._shift;
            const next = timeline.schedule(now, this._columns, frame);
            if (next.animate) {
                this._cancelWake();
                if (!this._clock.is_playing())
                    this._clock.start();
            } else {
                this._sleep(next.at);
            }
        }

        /**
         * Draws `text` (a frame's): the clusters the monospace font draws as its own cells in the
         * label, every other one as spaces there and in a label of its own over those cells,
         * centred in them, its baseline on the monospace font's (rounded to a pixel; the same
         * for that character wherever it is).
         */
        _setText(text) {
            this._text = text;
            let line = '';
            let cell = 0;
            let used = 0;
            for (const cluster of TimelineMath.clusters(text)) {
                const cells = TimelineMath.cellWidth(cluster);
                const metrics = /^[\x20-\x7e]*$/.test(cluster) ? null : this._measureCluster(cluster, cells);
                if (metrics === null || metrics.own) {
                    line += cluster;
                } else {
                    line += ' '.repeat(cells);
                    if (used === this._wide.length) {
                        this._wide.push(this._newLabel());
                        this._strip.add_child(this._wide[used]);
                    }
                    const label = this._wide[used++];
                    if (label.text !== cluster)
                        label.text = cluster;
                    label.set_position(Math.round(cell * this._cellPx + metrics.indent), metrics.rise);
                    label.visible = true;
                }
                cell += cells;
            }
            this._label.text = line;
            for (let i = used; i < this._wide.length; i++)
                this._wide[i].visible = false;
        }

        /**
         * How `cluster` (`cells` wide) draws in the label's font, fallbacks included: `own` when
         * it is the monospace font's own (its advance is its cells, spaces beside it keep theirs
         * and its line is that of the font) and reads left to right, else where its label goes
         * in its cells: `indent` (px from its first cell, to centre it) and `rise` (px from the
         * line's top, to put its baseline on the font's). A right-to-left letter (Hebrew,
         * Arabic, ...) is never the label's own: in one label Pango would reorder it with its
         * neighbours and join Arabic letters, where Render gives each its cell, left to right.
         * Spaces next to a letter of a fallback font take that font's space, which may be
         * narrower than a cell, even when the letter itself happens to be a cell wide.
         */
        _measureCluster(cluster, cells) {
            let metrics = this._metrics.get(cluster);
            if (metrics === undefined) {
                const layout = this._label.clutter_text.create_pango_layout(cluster);
                const padded = this._label.clutter_text.create_pango_layout(` ${cluster} `);
                if (this._font) {
                    layout.set_font_description(this._font);
                    padded.set_font_description(this._font);
                }
                const [advance, height] = layout.get_size();
                const baseline = layout.get_baseline();
                const width = Math.round(cells * this._cellPx * Pango.SCALE);
                const spaced = padded.get_size()[0] === Math.round((cells + 2) * this._cellPx * Pango.SCALE);
                metrics = {
                    own: !RIGHT_TO_LEFT.test(cluster) && spaced && advance === width &&
                        baseline === this._line.baseline && height === this._line.height,
                    indent: (width - advance) / 2 / Pango.SCALE,
                    rise: Math.round((this._line.baseline - baseline) / Pango.SCALE),
                };
                if (this._metrics.size > 1024)
                    this._metrics.clear();
                this._metrics.set(cluster, metrics);
            }
            return metrics;
        }

        /**
         * A primary click at stage point (x, y): the column under it in the frame drawn (the label
         * is shifted by the frame's offset and the cells drawn before the first column), then
         * `_activate`. Other buttons pass through.
         */
        _press(event) {
            // (While the daemon is away there is no one to ask: a click does nothing.)
            if (event.get_button() !== Clutter.BUTTON_PRIMARY || !this._timeline || this._cellPx === 0 ||
                !this._proxy.g_name_owner)
                return Clutter.EVENT_PROPAGATE;
            const [x, y] = event.get_coords();
            const [inside, clipX] = this._clip.transform_stage_point(x, y);
            if (!inside || clipX < 0 || clipX >= this._clip.width)
                return Clutter.EVENT_PROPAGATE;
            const column = Math.floor((clipX - this._shift) / this._cellPx) - this._before;
            // The cell partly shown past the last column exists only while the text scrolls: it
            // is the last column of the frame one cell wider.
            const columns = column < this._columns ? this._columns : this._columns + 1;
            if (column < 0 || column >= columns || (columns > this._columns && !this._drawnMoving))
                return Clutter.EVENT_STOP;
            this._activate(columns, column, this._drawnAt);
            return Clutter.EVENT_STOP;
        }

        /**
         * Asks which message is under `column` of the frame `Render(columns, at)`; if one is,
         * activates it and opens its link. Errors are logged, never thrown.
         */
        _activate(columns, column, at) {
            const proxy = this._proxy;
            const args = new GLib.Variant('(uux)', [columns, column, at]);
            proxy.call('MessageAt', args, Gio.DBusCallFlags.NO_AUTO_START, -1, this._cancellable, (source, result) => {
                let id, link;
                try {
                    [id, link] = source.call_finish(result).deepUnpack();
                } catch (e) {
                    if (!e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        logError(e, 'tickerd: cannot find the message clicked');
                    return;
                }
                if (id === '')
                    return;
                proxy.call('Activate', new GLib.Variant('(s)', [id]), Gio.DBusCallFlags.NO_AUTO_START, -1,
                    this._cancellable, (again, answer) => {
                        try {
                            again.call_finish(answer);
                        } catch (e) {
                            // The message may have left the channel since the click.
                            if (!e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                                log(`tickerd: cannot activate ${id}: ${e.message}`);
                        }
                    });
                if (link !== '')
                    this._open(link);
            });
        }

        /** Opens `link` with the default handler of its scheme; a failure is logged. */
        _open(link) {
            try {
                Gio.AppInfo.launch_default_for_uri_async(link, null, null, (source, result) => {
                    try {
                        Gio.AppInfo.launch_default_for_uri_finish(result);
                    } catch (e) {
                        logError(e, `tickerd: cannot open ${link}`);
                    }
                });
            } catch (e) {
                logError(e, `tickerd: cannot open ${link}`);
            }
        }

        /** Stops the clock; wakes at wall-clock instant `at` (µs) unless it is null. */
        _sleep(at) {
            if (this._clock.is_playing())
                this._clock.stop();
            this._cancelWake();
            if (at === null)
                return;
            const ms = Math.max(1, Math.ceil((at - GLib.get_real_time()) / 1000));
            this._wakeId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
                this._wakeId = 0;
                this._tick();
                return GLib.SOURCE_REMOVE;
            });
        }

        _cancelGrace() {
            if (this._graceId) {
                GLib.source_remove(this._graceId);
                this._graceId = 0;
            }
        }

        _cancelWake() {
            if (this._wakeId) {
                GLib.source_remove(this._wakeId);
                this._wakeId = 0;
            }
        }

        destroy() {
            this._cancellable.cancel();
            if (this._propertiesId)
                this._proxy.disconnect(this._propertiesId);
            if (this._ownerId)
                this._proxy.disconnect(this._ownerId);
            if (this._closedId)
                this._connection.disconnect(this._closedId);
            this._connection = null;
            this.disconnect(this._pressId);
            if (this._declared && this._proxy.g_name_owner) {
                // The subscription would end with the Shell's connection; end it now.
                this._proxy.call('Unsubscribe', null, Gio.DBusCallFlags.NO_AUTO_START, -1, null, null);
            }
            this._cancelWake();
            this._cancelGrace();
            this._clock.stop();
            this._clock.disconnect(this._clockId);
            this._label.disconnect(this._styleId);
            this._clock = null;
            this._proxy = null;
            this._timeline = null;
            super.destroy();
        }
    });
}
