// Checks the extension's enable()/disable() against the daemon: enable adds the top-bar item, which
// reads the channel over a real Gio.DBusProxy and starts its frame clock while the text scrolls;
// disable removes the item, disconnects every signal it connected (on the proxy and on the
// clock), stops the clock, and a second enable/disable round works the same.
//
//   DBUS_SESSION_BUS_ADDRESS=ADDRESS gjs tests/lifecycle-test.js
//
// GNOME Shell's own modules (St, Clutter, Main.panel, PanelMenu) are not on a test machine, so
// extension.js is loaded with stand-ins for them that record what the extension does; GLib, Gio
// and the bus are real. Exits 0 when every check holds, 1 otherwise (printing each failure).
'use strict';

const {Gio, GLib} = imports.gi;
const testsDirectory = GLib.path_get_dirname(imports.system.programPath);
const extensionDirectory = `${GLib.path_get_dirname(testsDirectory)}/tickerd@tickerd.github.io`;
// The shared timeline code lives in contrib/js (the extension's make target copies it in).
imports.searchPath.unshift(`${GLib.path_get_dirname(GLib.path_get_dirname(testsDirectory))}/js`);
const TimelineMath = imports.timeline;

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

    create_pango_layout(text) {
        return {get_pixel_size: () => [[...text].length * 8, 16]};
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
        this.clutter_text = {};
        this.text = '';
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
Gio.DBusProxy.prototype.disconnect = function (id) {
    check(proxyHandlers.delete(id), `proxy: disconnect of an id it never gave (${id})`);
    return realDisconnect.call(this, id);
};

const stubs = {
    gi: {
        Clutter: {Timeline: Clock, FixedLayout: class {}, ActorAlign: {CENTER: 'center'}},
        Gio,
        GLib,
        GObject: {registerClass: klass => klass},
        Pango: {EllipsizeMode: {NONE: 0}},
        St: {Widget: Actor, Label},
    },
    misc: {extensionUtils: {getCurrentExtension: () => ({imports: {timeline: TimelineMath}})}},
    ui: {main: {panel}, panelMenu: {Button}},
};

const [, bytes] = GLib.file_get_contents(`${extensionDirectory}/extension.js`);
const source = new TextDecoder().decode(bytes);
// eslint-disable-next-line no-new-func
const init = new Function('imports', 'logError', `${source}\nreturn init;`)(stubs, (error, message) => {
    check(false, `the extension logged an error: ${message}: ${error}`);
});

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

const extension = init();
for (let round = 1; round <= 2; round++) {
    extension.enable();
    const entry = statusArea.get('tickerd');
    check(entry !== undefined, `round ${round}: enable() adds the item to the panel`);
    if (!entry)
        break;
    check(entry.box === 'center', `round ${round}: the item sits in the centre box`);
    const indicator = entry.indicator;
    const clock = clocks[clocks.length - 1];
    const scrolling = spinUntil(() => clock.playing && indicator._labels.some(label => label.visible && label.text), 10);
    check(scrolling, `round ${round}: the item reads the Timeline and its frame clock runs while the text scrolls`);
    check(proxyHandlers.size === 2, `round ${round}: enabled, it listens to the proxy twice (got ${proxyHandlers.size})`);
    check(clock._handlers.size === 1, `round ${round}: enabled, the clock has its new-frame handler`);

    extension.disable();
    check(!statusArea.has('tickerd'), `round ${round}: disable() removes the item`);
    check(indicator.destroyed, `round ${round}: disable() destroys the item`);
    check(proxyHandlers.size === 0, `round ${round}: disable() disconnects from the proxy (${proxyHandlers.size} left)`);
    check(clock._handlers.size === 0, `round ${round}: disable() disconnects the clock`);
    check(!clock.playing, `round ${round}: disable() stops the clock`);
    check(extension._indicator === null, `round ${round}: disable() lets the item go`);
}

print(`lifecycle: 2 enable/disable rounds, ${failures} failure(s)`);
imports.system.exit(failures === 0 ? 0 : 1);
