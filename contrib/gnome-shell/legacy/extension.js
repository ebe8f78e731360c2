// tickerd ticker for GNOME Shell 43–44 (legacy `imports` modules): a top-bar item that shows one
// tickerd channel. The item itself (indicator.js) and the Timeline rules (timeline.js) are shared
// with the ES-module form for GNOME Shell 45+; `make gnome-extension` copies them in.
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
                Clutter, Gio, GLib, GObject, Pango, St, PanelMenu, TimelineMath: Me.imports.timeline, log, logError,
            });
        }
        this._indicator = new this._Indicator({channel: 'main', widthPx: 360});
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
