// The preferences of the tickerd extension for GNOME Shell 45 and later: the page of
// prefspage.js, shared with the legacy form.
import Adw from 'gi://Adw';
import Gio from 'gi://Gio';
import Gtk from 'gi://Gtk';

import {ExtensionPreferences} from 'resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js';

import {TickerdNames as Names} from './names.js';
import {makePreferencesPage} from './prefspage.js';

export default class TickerdPreferences extends ExtensionPreferences {
    fillPreferencesWindow(window) {
        window.add(makePreferencesPage({Adw, Gio, Gtk, Names}, this.getSettings()));
    }
}
