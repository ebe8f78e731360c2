// tickerd ticker for GNOME Shell 45 and later (ES modules): a top-bar item that shows one tickerd
// channel, chosen in the preferences (prefs.js) with its width and place. The item itself
// (indicator.js), its place in the bar (panelitem.js), the daemon's names (names.js) and the
// Timeline rules (timeline.js) are
// shared with the legacy form for GNOME Shell 43–44; `make gnome-extension` copies them in.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Pango from 'gi://Pango';
import St from 'gi://St';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import * as TimelineMath from './timeline.js';
import {makeIndicator} from './indicator.js';
import {PanelItem} from './panelitem.js';
import {TickerdNames as Names} from './names.js';

let Indicator = null;

export default class TickerdExtension extends Extension {
    enable() {
        Indicator ??= makeIndicator({Clutter, Gio, GLib, GObject, Pango, St, PanelMenu, TimelineMath, Names, log, logError});
        this._item = new PanelItem({Indicator, Names, panel: Main.panel, settings: this.getSettings(), log});
    }

    disable() {
        this._item.destroy();
        this._item = null;
    }
}
