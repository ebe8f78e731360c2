// tickerd ticker for GNOME Shell 43/44: a top-bar item that shows one tickerd channel.
//
// It reads the channel's `Timeline` property over Gio.DBus once, re-reads it on PropertiesChanged,
// and computes the text's position itself (timeline.js) on every frame of the stage's frame clock;
// nothing is sent on the bus per frame. The frame clock runs only while the text moves. Everything
// is connected in enable() and disconnected in disable().
/* exported init */
'use strict';

const {Clutter, Gio, GLib, GObject, Pango, St} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;

const Me = ExtensionUtils.getCurrentExtension();
const TimelineMath = Me.imports.timeline;

const BUS_NAME = 'io.github.tickerd.Ticker1';
const CHANNEL_INTERFACE = 'io.github.tickerd.Ticker1.Channel';
const CHANNEL = 'main';
const WIDTH_PX = 360;
const CHANNEL_XML = `<node><interface name="${CHANNEL_INTERFACE}">
  <property name="Text" type="s" access="read"/>
  <property name="Timeline" type="a{sv}" access="read"/>
  <property name="Paused" type="b" access="read"/>
</interface></node>`;

const TickerIndicator = GObject.registerClass(
class TickerIndicator extends PanelMenu.Button {
    _init() {
        super._init(0.0, 'tickerd', true);
        this._clip = new St.Widget({
            clip_to_allocation: true, width: WIDTH_PX, y_align: Clutter.ActorAlign.CENTER,
            style_class: 'tickerd-clip',
        });
        this._strip = new St.Widget({layout_manager: new Clutter.FixedLayout(), y_align: Clutter.ActorAlign.CENTER});
        this._clip.add_child(this._strip);
        this.add_child(this._clip);
        this._labels = [];
        this._timeline = null;
        this._pixelWidths = new Map();

        // Drives redraws at the display's frame rate while the text moves (started and stopped
        // in _update); its own duration is irrelevant, it repeats for ever.
        this._clock = new Clutter.Timeline({actor: this, duration: 1000, repeat_count: -1});
        this._clockId = this._clock.connect('new-frame', () => this._draw());

        const info = Gio.DBusInterfaceInfo.new_for_xml(CHANNEL_XML);
        this._proxy = new Gio.DBusProxy({
            g_bus_type: Gio.BusType.SESSION, g_name: BUS_NAME,
            g_object_path: `/io/github/tickerd/Ticker1/channel/${CHANNEL}`,
            g_interface_name: CHANNEL_INTERFACE, g_interface_info: info,
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
            this._ownerId = proxy.connect('notify::g-name-owner', () => this._update());
            this._update();
        });
    }

    _update() {
        const variant = this._proxy.g_name_owner ? this._proxy.get_cached_property('Timeline') : null;
        this._timeline = variant ? new TimelineMath.Timeline(TimelineMath.fromVariant(variant)) : null;
        const text = this._proxy.get_cached_property('Text');
        this.accessible_name = text ? text.unpack() : '';
        this._pixelWidths.clear();
        this._draw();
        const now = GLib.get_real_time();
        if (this._timeline && this._timeline.isMoving(now, this._columns()))
            this._clock.start();
        else
            this._clock.stop();
    }

    /** The clip's width in cells of the label font (the "fits" rule counts cells). */
    _columns() {
        const cell = this._pixelWidth('0');
        return cell > 0 ? Math.floor(WIDTH_PX / cell) : 0;
    }

    _pixelWidth(text) {
        if (!this._pixelWidths.has(text)) {
            const layout = this._clip.create_pango_layout(text);
            this._pixelWidths.set(text, layout.get_pixel_size()[0]);
        }
        return this._pixelWidths.get(text);
    }

    _label(index) {
        while (this._labels.length <= index) {
            const label = new St.Label({style_class: 'tickerd-text', y_align: Clutter.ActorAlign.CENTER});
            label.clutter_text.ellipsize = Pango.EllipsizeMode.NONE;
            this._strip.add_child(label);
            this._labels.push(label);
        }
        return this._labels[index];
    }

    /** Places tape copies so the stream position at this instant sits at the left edge. */
    _draw() {
        const timeline = this._timeline;
        let used = 0;
        if (timeline) {
            const now = GLib.get_real_time();
            const columns = this._columns();
            const state = timeline.streamState(now);
            const viewed = timeline.viewedTape(now, columns);
            const content = TimelineMath.Timeline.content(viewed.tape, viewed.gap);
            if (timeline.mode === 'static' || timeline.mode === 'pages' || timeline.mode === 'bounce' ||
                TimelineMath.cellWidth(content) <= columns) {
                const label = this._label(used++);
                // Text that fits types in its reveals (a message that arrived with a change shown
                // still, from the change on: timeline.js revealFor).
                label.text = TimelineMath.cellWidth(content) <= columns
                    ? timeline.revealed(content, viewed.layout, now, columns) : content;
                const shift = timeline.mode === 'bounce'
                    ? timeline.bounceProgress(now, TimelineMath.cellWidth(content) - columns) *
                      Math.max(0, this._pixelWidth(content) - WIDTH_PX) : 0;
                label.set_position(-Math.round(shift), 0);
            } else {
                const cycle = timeline.cycle(now, columns);
                const whole = Math.floor(cycle);
                let x = -(cycle - whole) * this._pixelWidth(state.tape);
                // Copies until the clip is covered; with a pending change, copies past the seam
                // show the next tape (direction left) so nothing jumps when it takes over.
                const seamCycle = timeline.next && state.origin === 0
                    ? timeline.next.switchPosition / Math.max(1, timeline.width) : Infinity;
                for (let k = whole; x < WIDTH_PX && used < 64; k++) {
                    const tape = timeline.sign > 0 && k >= seamCycle ? timeline.next.tape : state.tape;
                    const label = this._label(used++);
                    label.text = tape;
                    label.set_position(Math.round(x), 0);
                    x += Math.max(1, this._pixelWidth(tape));
                }
            }
        }
        for (let i = 0; i < this._labels.length; i++)
            this._labels[i].visible = i < used;
    }

    destroy() {
        this._cancellable.cancel();
        if (this._propertiesId)
            this._proxy.disconnect(this._propertiesId);
        if (this._ownerId)
            this._proxy.disconnect(this._ownerId);
        this._clock.stop();
        this._clock.disconnect(this._clockId);
        this._clock = null;
        this._proxy = null;
        super.destroy();
    }
});

class Extension {
    enable() {
        this._indicator = new TickerIndicator();
        Main.panel.addToStatusArea('tickerd', this._indicator, 1, 'center');
    }

    disable() {
        this._indicator.destroy();
        this._indicator = null;
    }
}

function init() {
    return new Extension();
}
