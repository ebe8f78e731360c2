// For contrib/tests/gnome_shell_day.py only: the extension's preferences page (prefspage.js of the
// build) in a real libadwaita window on the test's Shell, editing the settings the running
// extension follows (its schema from the installed extension, the session's GSettings backend),
// driven a line at a time on standard input as a person would use it:
//
//   channel NAME   types NAME in the Channel row and applies it (Enter / the apply button)
//   channels       waits (at most 10 s) until the Channel row's list has the bus's answer (the
//                  daemon's channels, or why there are none), opens it and answers with what it
//                  offers
//   pick NAME      picks NAME from that list (opened first if it is not open)
//   width PX       sets the Width spin button
//   position N     picks entry N (0 left, 1 center, 2 right) of the Place row
//   quit           closes the window
//
// After each it prints one line: `ok {JSON}` (the settings then, whether the Channel row shows an
// error, what the rows show, the names the list offers and what it says when it offers none,
// whether the list is open, and whether the window and the open list have painted it since), or
// `FAIL: what`. The first, once the window is mapped, is
// `shown ok {JSON}`.
//
//   WAYLAND_DISPLAY=wayland-0 gjs -m gnome_prefs_driver.js PREFS_DIR SCHEMA_DIR
//
// PREFS_DIR is the ES-module form of the build: its prefs.js (GNOME Shell 45+, whose
// ExtensionPreferences base class is not on a 43 machine, so a copy imports a stand-in that
// gives it the settings) fills the window, with the same prefspage.js and panelitem.js the
// legacy form's prefs.js loads; SCHEMA_DIR holds the compiled schema. The page reads the daemon
// on the session bus, as in the Shell's own preferences app.
import Adw from 'gi://Adw?version=1';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Gtk from 'gi://Gtk?version=4.0';

const [prefsDirectory, schemaDirectory] = ARGV;

Adw.init();
const schemas = Gio.SettingsSchemaSource.new_from_directory(schemaDirectory, null, false);
const settings = new Gio.Settings({settings_schema: schemas.lookup('org.gnome.shell.extensions.tickerd', false)});

/** The ES module prefs.js of PREFS_DIR, in a copy whose ExtensionPreferences is a stand-in. */
async function loadPreferences() {
    const copy = GLib.dir_make_tmp('tickerd-prefs-XXXXXX');
    for (const name of ['prefs.js', 'prefspage.js', 'names.js']) {
        const [, bytes] = GLib.file_get_contents(`${prefsDirectory}/${name}`);
        GLib.file_set_contents(`${copy}/${name}`, bytes);
    }
    globalThis.tickerdPrefsSettings = settings;
    GLib.file_set_contents(`${copy}/base.js`, 'export class ExtensionPreferences { constructor(metadata) { ' +
        'this.metadata = metadata; } getSettings() { return globalThis.tickerdPrefsSettings; } }');
    const specifier = "'resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js'";
    const [, source] = GLib.file_get_contents(`${copy}/prefs.js`);
    const text = new TextDecoder().decode(source);
    if (!text.includes(specifier))
        throw new Error(`prefs.js does not import ${specifier}`);
    GLib.file_set_contents(`${copy}/prefs.js`, text.replace(specifier, `'file://${copy}/base.js'`));
    const module = await import(`file://${copy}/prefs.js`);
    // Loaded: the copy goes.
    for (const name of ['prefs.js', 'prefspage.js', 'names.js', 'base.js'])
        GLib.unlink(`${copy}/${name}`);
    GLib.rmdir(copy);
    return new module.default({uuid: 'tickerd@tickerd.github.io'});
}

const window = new Adw.PreferencesWindow({title: 'tickerd ticker', default_width: 560, default_height: 420});
(await loadPreferences()).fillPreferencesWindow(window);

/** Depth-first search of `widget`'s descendants for the first that `wanted` accepts. */
function find(widget, wanted) {
    for (let child = widget.get_first_child(); child; child = child.get_next_sibling()) {
        if (wanted(child))
            return child;
        const found = find(child, wanted);
        if (found)
            return found;
    }
    return null;
}

const channelRow = find(window, w => w instanceof Adw.EntryRow);
const spin = find(window, w => w instanceof Gtk.SpinButton);
const combo = find(window, w => w instanceof Adw.ComboRow);
const choose = channelRow ? find(channelRow, w => w instanceof Gtk.MenuButton) : null;
const listed = choose?.popover?.child;
// The list's placeholder: the one label in it that is no row's.
const why = listed ? find(listed, w => w instanceof Gtk.Label && !(w.get_parent() instanceof Gtk.ListBoxRow)) : null;
const loop = new GLib.MainLoop(null, false);
const stdin = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0, close_fd: false})});

/**
 * Runs the main loop until each of `natives` (the window, an open popover) has painted a frame
 * from now on, so that what the driver did is on the screen for the test's screenshot (GTK paints
 * on its frame clock, driven by the compositor, not when a row changes); at most 10 s. Whether
 * they all painted.
 */
function painted(...natives) {
    const pending = new Set();
    const handlers = [];
    for (const native of natives) {
        const clock = native.get_frame_clock();
        if (!clock)
            continue;
        pending.add(native);
        handlers.push([clock, clock.connect('after-paint', () => pending.delete(native))]);
        native.queue_draw();
    }
    const deadline = GLib.get_monotonic_time() + 10_000_000;
    const tick = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => GLib.SOURCE_CONTINUE);
    while (pending.size > 0 && GLib.get_monotonic_time() < deadline)
        GLib.MainContext.default().iteration(true);
    GLib.source_remove(tick);
    for (const [clock, id] of handlers)
        clock.disconnect(id);
    return natives.length > 0 && pending.size === 0;
}

let lastPainted = false;

/** `ok` and, as JSON, the settings now and what the rows show. */
function state() {
    return `ok ${JSON.stringify({
        channel: settings.get_string('channel'), width: settings.get_uint('width'),
        position: settings.get_string('position'), error: channelRow.has_css_class('error'),
        rows: [channelRow.text, spin.value, combo.selected],
        listed: listedRows().map(row => row.get_child().label), why: why.label, painted: lastPainted,
        open: choose.popover.get_mapped(),
    })}`;
}

/** The rows of the Channel row's list. */
function listedRows() {
    const rows = [];
    for (let row = listed.get_row_at_index(0); row; row = listed.get_row_at_index(rows.length))
        rows.push(row);
    return rows;
}

function perform(line) {
    const text = line.trim();
    const space = text.indexOf(' ');
    const [command, value] = space < 0 ? [text, ''] : [text.slice(0, space), text.slice(space + 1)];
    switch (command) {
    case 'channel':
        channelRow.text = value;
        channelRow.emit('apply');
        break;
    case 'channels': {
        const deadline = GLib.get_monotonic_time() + 10_000_000;
        const tick = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => GLib.SOURCE_CONTINUE);
        while (listedRows().length === 0 && why.label.startsWith('Asking') && GLib.get_monotonic_time() < deadline)
            GLib.MainContext.default().iteration(true);
        GLib.source_remove(tick);
        choose.popup();
        break;
    }
    case 'pick': {
        if (!choose.active)
            choose.popup();
        const row = listedRows().find(candidate => candidate.get_child().label === value);
        if (!row)
            return `FAIL: the list does not offer '${value}'`;
        row.activate();
        break;
    }
    case 'width':
        spin.value = Number(value);
        break;
    case 'position':
        combo.selected = Number(value);
        break;
    case 'quit':
        window.close();
        loop.quit();
        return null;
    default:
        return `FAIL: unknown command '${command}'`;
    }
    // Everything the change dispatched (the backend's write, the rows' own updates) has run, and
    // the window (with the list, when it is open) shows it.
    while (GLib.MainContext.default().iteration(false))
        ;
    lastPainted = painted(window, ...(choose.popover.get_mapped() ? [choose.popover] : []));
    return state();
}

function next() {
    stdin.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        const [line] = stream.read_line_finish_utf8(result);
        if (line === null) {
            loop.quit();
            return;
        }
        const answer = perform(line);
        if (answer === null)
            return;
        print(answer);
        next();
    });
}

if (!channelRow || !spin || !combo || !(listed instanceof Gtk.ListBox) || !why) {
    print(`FAIL: the page lacks a row (channel ${!!channelRow}, width ${!!spin}, place ${!!combo}, ` +
        `channel list ${listed instanceof Gtk.ListBox})`);
} else {
    window.connect('map', () => {
        print(`shown ${state()}`);
        next();
    });
    window.present();
    loop.run();
}
