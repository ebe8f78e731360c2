// For contrib/tests/gnome-shell-test.sh only (never installed for users): on the test's session
// bus as io.github.tickerd.ShellTestHelper, it leaves the overview the Shell starts in and reports
// where the tickerd item's clip is on screen and the cell width the item measured, so the
// screenshots can be read cell by cell, and which frame the item drew last (for failure reports);
// it clicks through a virtual pointer of Clutter's seat (the input path a real mouse takes).
/* exported init */
'use strict';

const {Clutter, Gio, GLib} = imports.gi;
const Main = imports.ui.main;

const HELPER_XML = `<node><interface name="io.github.tickerd.ShellTestHelper">
  <method name="HideOverview"><arg type="b" direction="out"/></method>
  <method name="Clip"><arg type="b" direction="out"/><arg type="d" direction="out"/><arg type="d" direction="out"/>
    <arg type="d" direction="out"/><arg type="d" direction="out"/><arg type="d" direction="out"/><arg type="u" direction="out"/>
    <arg type="d" direction="out"/></method>
  <method name="Drawn"><arg type="s" direction="out"/><arg type="i" direction="out"/><arg type="x" direction="out"/></method>
  <method name="Labels"><arg type="s" direction="out"/></method>
  <method name="Item"><arg type="s" direction="out"/><arg type="s" direction="out"/></method>
  <method name="Windows"><arg type="as" direction="out"/></method>
  <method name="CloseWindow"><arg type="s" direction="in"/></method>
  <method name="Click"><arg type="d" direction="in"/><arg type="d" direction="in"/><arg type="u" direction="in"/></method>
</interface></node>`;

class Helper {
    /** Leaves the overview; true once it is hidden. */
    HideOverview() {
        if (Main.overview.visible)
            Main.overview.hide();
        return !Main.overview.visible && !Main.overview.animationInProgress;
    }

    /** (shown, x, y, width, height, cell px, columns, panel height) of the tickerd item's clip. */
    Clip() {
        const item = Main.panel.statusArea.tickerd;
        if (!item || !item._clip || !item.visible || !item._clip.get_stage())
            return [false, 0, 0, 0, 0, 0, 0, Main.panel.height];
        const [x, y] = item._clip.get_transformed_position();
        const [width, height] = item._clip.get_transformed_size();
        return [true, x, y, width, height, item._cellPx, item._columns, Main.panel.height];
    }

    /** (text, shift px, instant µs) of the frame the tickerd item drew last ('' when none). */
    Drawn() {
        const item = Main.panel.statusArea.tickerd;
        if (!item || typeof item._text !== 'string')
            return ['', 0, 0];
        return [item._text, item._shift ?? 0, item._drawnAt ?? 0];
    }

    /** (channel, box) of the tickerd item: what the extension's settings made of it ('' when none). */
    Item() {
        const item = Main.panel.statusArea.tickerd;
        if (!item)
            return ['', ''];
        const box = ['left', 'center', 'right'].find(name => Main.panel[`_${name}Box`].contains(item.container)) ?? '';
        return [item._channel ?? '', box];
    }

    /**
     * The titles of the windows on screen: the overview hidden, each window's actor shown at its
     * full size and opacity (its opening animation over).
     */
    Windows() {
        if (Main.overview.visible)
            return [];
        return global.get_window_actors()
            .filter(actor => actor.visible && actor.get_stage() && actor.opacity === 255 &&
                actor.scale_x === 1 && actor.scale_y === 1 && actor.get_transition('scale-x') === null)
            .map(actor => actor.meta_window.get_title() ?? '');
    }

    /** Asks the windows titled `title` to close, as their close button does. */
    CloseWindow(title) {
        for (const actor of global.get_window_actors()) {
            if (actor.meta_window.get_title() === title)
                actor.meta_window.delete(global.get_current_time());
        }
    }

    /** JSON of the item's visible labels, [[text, x, y, width]] (for failure reports). */
    Labels() {
        const item = Main.panel.statusArea.tickerd;
        if (!item || !item._strip)
            return '[]';
        return JSON.stringify(item._strip.get_children().filter(c => c.visible)
            .map(c => [c.text, c.x, c.y, c.width]));
    }

    /**
     * Moves the pointer to stage point (x, y), presses and releases `button` there, then moves
     * it to the bottom-left corner (nothing there reacts to a hover).
     */
    Click(x, y, button) {
        this._pointer ??= Clutter.get_default_backend().get_default_seat()
            .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
        const now = () => GLib.get_monotonic_time();
        this._pointer.notify_absolute_motion(now(), x, y);
        this._pointer.notify_button(now(), button, Clutter.ButtonState.PRESSED);
        this._pointer.notify_button(now(), button, Clutter.ButtonState.RELEASED);
        // Away a moment later: moved at once, the click reached no actor here.
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 100, () => {
            this._pointer.notify_absolute_motion(now(), 0, global.stage.height - 1);
            return GLib.SOURCE_REMOVE;
        });
    }
}

class Extension {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(HELPER_XML, new Helper());
        this._object.export(Gio.DBus.session, '/io/github/tickerd/ShellTestHelper');
        this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, 'io.github.tickerd.ShellTestHelper',
            Gio.BusNameOwnerFlags.NONE, null, null);
    }

    disable() {
        Gio.bus_unown_name(this._nameId);
        this._object.unexport();
    }
}

function init() {
    return new Extension();
}
