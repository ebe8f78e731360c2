// Checks the extension's enable()/disable() against the daemon, in both forms `make
// gnome-extension` assembles (FORM legacy: GNOME Shell 43–44; esm: the ES module of 45+):
// enable adds the top-bar item, which reads the channel over a real Gio.DBusProxy, draws the
// frame in its label and starts its frame clock while the text scrolls; disable removes the item,
// disconnects every signal it connected (on the proxy, the label and the clock), stops the clock,
// drops its wake-up, and a second enable/disable round works the same. A primary click over the
// message with a link (posted by panel-tests.sh) activates it (`Activated` seen on the bus by this
// test's own subscription) and asks to open its link; a middle click and a click over the separator
// do neither. The daemon's name going away (a restart) leaves the text drawn and moving for the
// 2 s grace, then the item hides, and shows again once the name is back; the bus connection lost,
// it hides at once; a disable during the grace drops its timeout with the item. A change of the
// settings (channel, width, box; in memory, from the schema compiled into the build) builds the
// item again as they say, and a disabled extension no longer follows them.
//
//   DBUS_SESSION_BUS_ADDRESS=ADDRESS gjs -m tests/lifecycle-test.js BUILD_DIR FORM
//
// GNOME Shell's own modules (St, Clutter, Main.panel, PanelMenu, the Extension base class) are not
// on a test machine, so extension.js is loaded with stand-ins for them that record what the
// extension does (the ES module's `gi://St`, `gi://Clutter` and `resource:///org/gnome/shell/…`
// imports are pointed at stand-in modules in a temporary copy); GLib, Gio and the bus are real.
// Exits 0 when every check holds, 1 otherwise (printing each failure).
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const [buildDirectory, form = 'legacy'] = ARGV;
const uuid = 'tickerd@tickerd.github.io';
const extensionDirectory = `${buildDirectory}/${form}/${uuid}`;

let failures = 0;
function check(condition, what) {
    if (!condition) {
        failures++;
        print(`FAIL: ${what}`);
    }
}

/** Signal bookkeeping like GObject's: connect returns an id, disconnect of an unknown id fails. */
class Signals {
    constructor(owner) {
        this._signalOwner = owner;
        this._handlers = new Map();
        this._nextId = 1;
    }

    connect(name, handler) {
        const id = this._nextId++;
        this._handlers.set(id, {name, handler});
        return id;
    }

    disconnect(id) {
        check(this._handlers.delete(id), `${this._signalOwner}: disconnect of an id it never gave (${id})`);
    }

    emit(name, ...args) {
        for (const {name: wanted, handler} of [...this._handlers.values()]) {
            if (wanted === name)
                handler(this, ...args);
        }
    }
}

/** An St/Clutter actor: children, position, visibility, a Pango layout 8 px a cell. */
const PANGO_SCALE = 1024;
class Actor extends Signals {
    constructor(params = {}) {
        super('actor');
        Object.assign(this, params);
        this.children = [];
        this.visible = true;
        this.destroyed = false;
    }

    add_child(child) {
        this.children.push(child);
    }

    set_position(x, y) {
        this.x = x;
        this.y = y;
    }

    /** Stage point (x, y) in this actor's coordinates: it sits at `stageX` on the stage. */
    transform_stage_point(x, y) {
        return [true, x - (this.stageX ?? 0), y];
    }

    create_pango_layout(text) {
        return {
            get_pixel_size: () => [[...text].length * 8, 16],
            get_size: () => [[...text].length * 8 * PANGO_SCALE, 16 * PANGO_SCALE],
            get_baseline: () => 12 * PANGO_SCALE,
            set_font_description: () => {},
        };
    }

    destroy() {
        this.destroyed = true;
        for (const child of this.children)
            child.destroy();
        this.emit('destroy');
    }
}

class Label extends Actor {
    constructor(params) {
        super(params);
        this.clutter_text = new Actor();
        this.text = '';
        this.translation_x = 0;
    }

    get_theme_node() {
        return {get_font: () => null};
    }
}

const clocks = [];
/** Clutter.Timeline: started and stopped by the extension, never run here. */
class Clock extends Signals {
    constructor(params) {
        super('Clutter.Timeline');
        this.params = params;
        this.playing = false;
        clocks.push(this);
    }

    start() {
        this.playing = true;
    }

    stop() {
        this.playing = false;
    }

    is_playing() {
        return this.playing;
    }
}

/** PanelMenu.Button: a GObject class in the Shell; here an actor that calls _init. */
class Button extends Actor {
    constructor(...args) {
        super();
        this._init(...args);
    }

    _init(alignment, name) {
        this.accessibleName = name;
    }

}

/** Main.panel: the status area drops an item when it is destroyed, as the Shell's does. */
const statusArea = new Map();
const panel = {
    addToStatusArea(role, indicator, position, box) {
        check(!statusArea.has(role), `addToStatusArea('${role}') while it is already there`);
        statusArea.set(role, {indicator, position, box});
        indicator.connect('destroy', () => statusArea.delete(role));
        return indicator;
    },
};

// Every handler connected on a D-Bus proxy, so disable() can be checked to drop them all.
const proxyHandlers = new Set();
const realConnect = Gio.DBusProxy.prototype.connect;
const realDisconnect = Gio.DBusProxy.prototype.disconnect;
Gio.DBusProxy.prototype.connect = function (name, handler) {
    const id = realConnect.call(this, name, handler);
    proxyHandlers.add(id);
    return id;
};
// The extension's MessageAt and Activate calls: made, and answered (their callbacks have run).
const calls = {MessageAt: {made: 0, answered: 0}, Activate: {made: 0, answered: 0}};
const realCall = Gio.DBusProxy.prototype.call;
Gio.DBusProxy.prototype.call = function (method, parameters, flags, timeout, cancellable, callback) {
    const count = calls[method];
    if (!count)
        return realCall.call(this, method, parameters, flags, timeout, cancellable, callback);
    count.made++;
    return realCall.call(this, method, parameters, flags, timeout, cancellable, (proxy, result) => {
        try {
            callback?.(proxy, result);
        } finally {
            count.answered++;
        }
    });
};
Gio.DBusProxy.prototype.disconnect = function (id) {
    check(proxyHandlers.delete(id), `proxy: disconnect of an id it never gave (${id})`);
    return realDisconnect.call(this, id);
};

const St = {Widget: Actor, Label};
const Clutter = {
    Timeline: Clock, FixedLayout: class {}, ActorAlign: {CENTER: 'center'},
    BUTTON_PRIMARY: 1, BUTTON_MIDDLE: 2, EVENT_STOP: true, EVENT_PROPAGATE: false,
};
const GObject = {registerClass: klass => klass};
const Pango = {EllipsizeMode: {NONE: 0}, SCALE: PANGO_SCALE};
// The default URI handler: records what the extension asks to open instead of starting a browser.
const launched = [];
Gio.AppInfo.launch_default_for_uri_async = (uri, context, cancellable, callback) => {
    launched.push(uri);
    if (callback)
        callback(null, null);
};
Gio.AppInfo.launch_default_for_uri_finish = () => true;

// `Activated` as an independent subscriber on the bus sees it.
const activated = [];
const bus = Gio.bus_get_sync(Gio.BusType.SESSION, null);
bus.signal_subscribe(null, 'io.github.tickerd.Ticker1.Manager', 'Activated', '/io/github/tickerd/Ticker1', null,
    Gio.DBusSignalFlags.NONE, (connection, sender, path, iface, signal, parameters) => activated.push(parameters.deepUnpack()));
const LINKED_TEXT = 'tickerd site';
const LINK = 'https://example.org/tickerd?from=panel&x=1';

const logError = (error, message) => check(false, `the extension logged an error: ${message}: ${error}`);

// The extension's settings, from the schema `make gnome-extension` compiled into it, in memory.
const schemas = Gio.SettingsSchemaSource.new_from_directory(`${extensionDirectory}/schemas`, null, false);
const settings = new Gio.Settings({
    settings_schema: schemas.lookup('org.gnome.shell.extensions.tickerd', false),
    backend: Gio.memory_settings_backend_new(),
});
const logged = [];

/** The extension object of `form`, its modules standing in for the Shell's. */
async function loadExtension() {
    const [, bytes] = GLib.file_get_contents(`${extensionDirectory}/extension.js`);
    const source = new TextDecoder().decode(bytes);
    if (form === 'legacy') {
        imports.searchPath.unshift(extensionDirectory);
        const stubs = {
            gi: {Clutter, Gio, GLib, GObject, Pango, St},
            misc: {
                extensionUtils: {
                    getCurrentExtension: () => ({
                        imports: {
                            timeline: imports.timeline, indicator: imports.indicator, panelitem: imports.panelitem,
                            names: imports.names,
                        },
                    }),
                    getSettings: () => settings,
                },
            },
            ui: {main: {panel}, panelMenu: {Button}},
        };
        // eslint-disable-next-line no-new-func
        const init = new Function('imports', 'log', 'logError', `${source}\nreturn init;`)(stubs, line => logged.push(line), logError);
        return init();
    }
    // The ES module, copied with its Shell imports pointed at stand-in modules.
    globalThis.tickerdStubs = {Clutter, GObject, Pango, St, panel, Button, settings};
    globalThis.logError = logError;
    globalThis.log = line => logged.push(line);
    const copy = GLib.dir_make_tmp('tickerd-esm-XXXXXX');
    const stub = (name, text) => {
        GLib.file_set_contents(`${copy}/${name}`, text);
        return `file://${copy}/${name}`;
    };
    const replacements = {
        'gi://Clutter': stub('clutter.js', 'export default globalThis.tickerdStubs.Clutter;'),
        'gi://GObject': stub('gobject.js', 'export default globalThis.tickerdStubs.GObject;'),
        'gi://Pango': stub('pango.js', 'export default globalThis.tickerdStubs.Pango;'),
        'gi://St': stub('st.js', 'export default globalThis.tickerdStubs.St;'),
        'resource:///org/gnome/shell/ui/main.js': stub('main.js', 'export const panel = globalThis.tickerdStubs.panel;'),
        'resource:///org/gnome/shell/ui/panelMenu.js': stub('panelMenu.js', 'export const Button = globalThis.tickerdStubs.Button;'),
        'resource:///org/gnome/shell/extensions/extension.js': stub('base.js',
            'export class Extension { constructor(metadata) { this.metadata = metadata; } ' +
            'getSettings() { return globalThis.tickerdStubs.settings; } }'),
    };
    let rewritten = source;
    for (const [specifier, url] of Object.entries(replacements)) {
        check(rewritten.includes(`'${specifier}'`), `the ES module imports ${specifier}`);
        rewritten = rewritten.replaceAll(`'${specifier}'`, `'${url}'`);
    }
    for (const name of ['timeline.js', 'indicator.js', 'panelitem.js', 'names.js']) {
        const [, shared] = GLib.file_get_contents(`${extensionDirectory}/${name}`);
        GLib.file_set_contents(`${copy}/${name}`, shared);
    }
    GLib.file_set_contents(`${copy}/extension.js`, rewritten);
    const module = await import(`file://${copy}/extension.js`);
    return new module.default({uuid});
}

/** Runs the main loop until `condition` holds or `seconds` pass. */
function spinUntil(condition, seconds) {
    const deadline = GLib.get_monotonic_time() + seconds * 1_000_000;
    const tick = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => GLib.SOURCE_CONTINUE);
    const context = GLib.MainContext.default();
    while (!condition() && GLib.get_monotonic_time() < deadline)
        context.iteration(true);
    GLib.source_remove(tick);
    return condition();
}

/**
 * A button press at stage x (the clip starts at stage x 100), through the item's signal, over
 * cell `column` of the label's text (the view's column `column` − the cells drawn before it).
 */
function press(indicator, button, column) {
    const x = 100 + indicator._strip.translation_x + (column + 0.5) * indicator._cellPx;
    const event = {get_button: () => button, get_coords: () => [x, 10]};
    indicator.emit('button-press-event', event);
}

/** Clicks over the separator, with the middle button, then over the message with the link. */
function checkClicks(indicator, clock) {
    indicator._clip.stageX = 100;
    // Frames until the linked message is whole in view with a cell of separator before it (in
    // the view's columns: the label draws a cell before the first while the text scrolls).
    const where = () => indicator._label.text.indexOf(LINKED_TEXT) - indicator._before;
    const inView = spinUntil(() => {
        const at = where();
        if (at >= 1 && at + LINKED_TEXT.length <= indicator._columns)
            return true;
        clock.emit('new-frame');
        return false;
    }, 30);
    check(inView, `the message with the link comes into view (drawn: '${indicator._label.text}')`);
    if (!inView)
        return;
    const at = where() + indicator._before;
    press(indicator, 1, at - 1);
    press(indicator, 2, at + 2);
    press(indicator, 1, at + 2);
    // Both primary clicks asked MessageAt (the middle one nothing) and every Activate was answered;
    // the daemon emits Activated before it answers, on the same connection, so the signals are in.
    const done = spinUntil(() => calls.MessageAt.answered === 2 &&
        calls.Activate.made >= 1 && calls.Activate.answered === calls.Activate.made, 10);
    check(done, `the clicks were answered (${JSON.stringify(calls)})`);
    check(calls.MessageAt.made === 2, `the middle click asks nothing: ${calls.MessageAt.made} MessageAt calls for 2 primary clicks`);
    check(activated.length === 1 && activated[0][0] === 'main' && activated[0][1] === 'site',
        `only the message clicked is activated, once: got ${JSON.stringify(activated)}`);
    check(launched.length === 1 && launched[0] === LINK, `only its link is opened, once: got ${JSON.stringify(launched)}`);
}

/**
 * The daemon's name gone, as GDBusProxy reports it (`g-name-owner` null, then its notify): the
 * proxy's owner reads null until `nameBack`. (The daemon itself stays up: panel-tests.sh's.)
 */
function nameAway(indicator) {
    Object.defineProperty(indicator._proxy, 'g_name_owner', {value: null, configurable: true});
    indicator._proxy.notify('g-name-owner');
}

function nameBack(indicator) {
    delete indicator._proxy.g_name_owner;
    indicator._proxy.notify('g-name-owner');
}

/** Frames until the text moves (the clock's frames, as the Shell would dispatch them). */
function moves(indicator, clock) {
    const first = indicator._strip.translation_x;
    return spinUntil(() => { clock.emit('new-frame'); return indicator._strip.translation_x !== first; }, 5);
}

/**
 * Round 1: the name goes away; the item keeps drawing (moving text, clock running) through the
 * 2 s grace, then hides and stops its clock; the name back, it shows the text again.
 */
function checkGrace(indicator, clock) {
    const gone = GLib.get_monotonic_time();
    nameAway(indicator);
    check(indicator.visible && clock.playing && moves(indicator, clock),
        'the daemon\'s name gone: the item still shows the text and moves it (the grace)');
    const hidden = spinUntil(() => !indicator.visible, 5);
    const after = (GLib.get_monotonic_time() - gone) / 1e6;
    check(hidden, 'the daemon\'s name gone for good: the item hides after the grace');
    check(after >= 2.0, `the item kept the text for the 2 s grace (it hid after ${after.toFixed(2)} s)`);
    check(!clock.playing && indicator._graceId === 0, 'hidden after the grace: no clock, no grace timeout left');
    nameBack(indicator);
    check(indicator.visible && clock.playing && moves(indicator, clock), 'the name back: the item shows and moves the text again');
    // The bus connection lost (the session ending; `closed` as GDBusConnection emits it, the peer
    // not vanished so the test process is not ended): the item hides at once, with no grace.
    indicator._connection.emit('closed', false, null);
    check(!indicator.visible && !clock.playing && indicator._graceId === 0,
        'the bus connection lost: the item hides at once (no grace)');
}

/**
 * Round 3: the settings change while the extension is enabled: each change builds the item again
 * with the channel, width and box they say (the one before destroyed, its proxy handlers
 * dropped); a name that is no channel name shows main; disabled, a change adds nothing.
 */
function checkSettings() {
    extension.enable();
    const first = statusArea.get('tickerd')?.indicator;
    settings.set_string('channel', 'side');
    settings.set_uint('width', 480);
    settings.set_string('position', 'right');
    const moved = spinUntil(() => statusArea.get('tickerd')?.box === 'right', 5);
    check(moved, `round 3: the item moves to the right box (${statusArea.get('tickerd')?.box})`);
    const entry = statusArea.get('tickerd');
    if (!entry)
        return;
    const indicator = entry.indicator;
    indicator._label.emit('style-changed');
    check(indicator._channel === 'side', `round 3: the item shows the channel set (${indicator._channel})`);
    check(indicator._columns === 60 && indicator._clip.width === 480,
        `round 3: 8 px cells give 60 columns in 480 px (got ${indicator._columns}, ${indicator._clip.width} px)`);
    check(first.destroyed && indicator !== first, 'round 3: the item of the old settings is destroyed');
    check(entry.position === 0, `round 3: first in the right box (index ${entry.position})`);
    spinUntil(() => proxyHandlers.size >= 2, 10);
    check(proxyHandlers.size === 2, `round 3: only the new item listens to its proxy (${proxyHandlers.size} handlers)`);
    settings.set_string('channel', 'Bad Name');
    spinUntil(() => statusArea.get('tickerd')?.indicator._channel === 'main', 5);
    check(statusArea.get('tickerd')?.indicator._channel === 'main', 'round 3: a name that is no channel name shows main');
    check(logged.some(line => line.includes("'Bad Name' is no channel name")), `round 3: the bad name is logged (${logged})`);
    extension.disable();
    check(!statusArea.has('tickerd') && proxyHandlers.size === 0, 'round 3: disable() removes the item');
    settings.set_string('channel', 'other');
    // Everything the change dispatched has run.
    while (GLib.MainContext.default().iteration(false))
        ;
    check(!statusArea.has('tickerd'), 'round 3: disabled, a settings change adds no item');
    for (const key of ['channel', 'width', 'position'])
        settings.reset(key);
}

const extension = await loadExtension();
for (let round = 1; round <= 2; round++) {
    extension.enable();
    const entry = statusArea.get('tickerd');
    check(entry !== undefined, `round ${round}: enable() adds the item to the panel`);
    if (!entry)
        break;
    check(entry.box === 'center', `round ${round}: the item sits in the centre box`);
    const indicator = entry.indicator;
    const clock = clocks[clocks.length - 1];
    // The Shell styles the label once it is on the stage: then the item measures its font.
    indicator._label.emit('style-changed');
    check(indicator._columns === 45 && indicator._clip.width === 360,
        `round ${round}: 8 px cells give 45 columns in 360 px (got ${indicator._columns}, ${indicator._clip.width} px)`);
    const scrolling = spinUntil(() => clock.playing && indicator.visible && indicator._label.text.length === 48, 10);
    check(scrolling, `round ${round}: the item reads the Timeline, draws 48 cells (one before its 45 columns, two past) and its frame clock runs while the text scrolls`);
    const first = indicator._strip.translation_x;
    const moved = spinUntil(() => { clock.emit('new-frame'); return indicator._strip.translation_x !== first; }, 5);
    check(moved, `round ${round}: a new frame moves the text`);
    check(proxyHandlers.size === 2, `round ${round}: enabled, it listens to the proxy twice (got ${proxyHandlers.size})`);
    check(clock._handlers.size === 1, `round ${round}: enabled, the clock has its new-frame handler`);
    if (round === 1) {
        checkClicks(indicator, clock);
        checkGrace(indicator, clock);
    }
    // Round 2: disabled during the grace (the name away), which must end with the item.
    let grace = 0;
    if (round === 2) {
        nameAway(indicator);
        grace = indicator._graceId;
        check(grace !== 0 && indicator.visible, 'round 2: the name gone, the item keeps the text for the grace');
    }

    extension.disable();
    check(!statusArea.has('tickerd'), `round ${round}: disable() removes the item`);
    check(indicator.destroyed, `round ${round}: disable() destroys the item`);
    check(proxyHandlers.size === 0, `round ${round}: disable() disconnects from the proxy (${proxyHandlers.size} left)`);
    check(clock._handlers.size === 0, `round ${round}: disable() disconnects the clock`);
    check(indicator._label._handlers.size === 0, `round ${round}: disable() disconnects the label`);
    check(!clock.playing, `round ${round}: disable() stops the clock`);
    check(indicator._wakeId === 0, `round ${round}: disable() drops its wake-up`);
    check(indicator._graceId === 0 && (grace === 0 || GLib.MainContext.default().find_source_by_id(grace) === null),
        `round ${round}: disable() drops the grace timeout`);
    check(extension._item === null, `round ${round}: disable() lets the item go`);
}

checkSettings();

print(`lifecycle (${form}): 2 enable/disable rounds and a round of settings changes, ${failures} failure(s)`);
System.exit(failures === 0 ? 0 : 1);
