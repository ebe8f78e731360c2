// The preferences of the tickerd extension for GNOME Shell 43–44: the page of prefspage.js,
// shared with the ES-module form.
/* exported init, fillPreferencesWindow */
'use strict';

const {Adw, Gio, Gtk} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;

const Me = ExtensionUtils.getCurrentExtension();

function init() {
}

function fillPreferencesWindow(window) {
    window.add(Me.imports.prefspage.makePreferencesPage(
        {Adw, Gio, Gtk, Names: Me.imports.names.TickerdNames}, ExtensionUtils.getSettings()));
}
