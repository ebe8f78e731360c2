// tickerd ticker for GNOME Shell 43–44 (legacy `imports` modules): a top-bar item that shows one
// tickerd channel, chosen in the preferences (prefs.js) with its width and place. The item itself
// (indicator.js), its place in the bar (panelitem.js), the daemon's names (names.js) and the
// Timeline rules (timeline.js) are
// shared with the ES-module form for GNOME Shell 45+; `make gnome-extension` copies them in.
/* exported init */
'use strict';

const {Clutter, Gio, GLib, GObject, Pango, St} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;

const Me = ExtensionUtils.getCurrentExtension();

class Extension {
    enable() {
        if (!this._Indicator) {
            this._Indicator = Me.imports.indicator.makeIndicator({
                Clutter, Gio, GLib, GObject, Pango, St, PanelMenu, TimelineMath: Me.imports.timeline,
                Names: Me.imports.names.TickerdNames, log, logError,
            });
        }
        this._item = new Me.imports.panelitem.PanelItem({
            Indicator: this._Indicator, Names: Me.imports.names.TickerdNames, panel: Main.panel, settings: ExtensionUtils.getSettings(), log,
        });
    }

    disable() {
        this._item.destroy();
        this._item = null;
    }
}

function init() {
    return new Extension();
}
