// The extension's preferences page (libadwaita 1.2, GNOME 43 and later): the channel, the width
// and the place in the top bar, written to the extension's settings as they are chosen. Shared by
// both forms' prefs.js. A channel is applied only when it is a channel name: the row shows an
// error until it is, and the setting keeps the last good one.
/* exported makePreferencesPage */
'use strict';

/** The boxes of the top bar, in the order of the settings' enum. */
const BOXES = ['Left', 'Center', 'Right'];

/**
 * An Adw.PreferencesPage editing `settings` (org.gnome.shell.extensions.tickerd); `channelName`
 * is panelitem.js's (a name it keeps is a channel name).
 */
function makePreferencesPage({Adw, Gtk, channelName}, settings) {
    const page = new Adw.PreferencesPage({title: 'Ticker', icon_name: 'preferences-system-symbolic'});
    const group = new Adw.PreferencesGroup({
        title: 'Ticker',
        description: 'The tickerd channel shown in the top bar (tickerctl status lists them), and where.',
    });
    page.add(group);

    const channel = new Adw.EntryRow({title: 'Channel', show_apply_button: true});
    channel.text = settings.get_string('channel');
    const valid = () => channelName(channel.text) === channel.text;
    channel.connect('changed', () => {
        if (valid())
            channel.remove_css_class('error');
        else
            channel.add_css_class('error');
    });
    channel.connect('apply', () => {
        if (valid() && channel.text !== settings.get_string('channel'))
            settings.set_string('channel', channel.text);
    });
    group.add(channel);

    const width = new Gtk.SpinButton({
        adjustment: new Gtk.Adjustment({lower: 60, upper: 3000, step_increment: 10, page_increment: 100}),
        valign: Gtk.Align.CENTER,
    });
    width.value = settings.get_uint('width');
    width.connect('value-changed', () => {
        if (settings.get_uint('width') !== width.value)
            settings.set_uint('width', width.value);
    });
    const widthRow = new Adw.ActionRow({title: 'Width', subtitle: 'In pixels; the item never changes width'});
    widthRow.add_suffix(width);
    widthRow.activatable_widget = width;
    group.add(widthRow);

    const position = new Adw.ComboRow({title: 'Place in the top bar', model: Gtk.StringList.new(BOXES)});
    position.selected = settings.get_enum('position');
    position.connect('notify::selected', () => {
        if (settings.get_enum('position') !== position.selected)
            settings.set_enum('position', position.selected);
    });
    group.add(position);

    // Changed elsewhere (gsettings, another window): the rows follow.
    const changedId = settings.connect('changed', () => {
        const name = settings.get_string('channel');
        if (channel.text !== name && !channel.has_css_class('error'))
            channel.text = name;
        if (width.value !== settings.get_uint('width'))
            width.value = settings.get_uint('width');
        if (position.selected !== settings.get_enum('position'))
            position.selected = settings.get_enum('position');
    });
    page.connect('destroy', () => settings.disconnect(changedId));
    return page;
}
