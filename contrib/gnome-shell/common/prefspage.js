// The extension's preferences page (libadwaita 1.2, GNOME 43 and later): the channel, the width
// and the place in the top bar, written to the extension's settings as they are chosen. Shared by
// both forms' prefs.js. A channel is applied only when it is a channel name: the row shows an
// error until it is, and the setting keeps the last good one. The Channel row's list button
// offers the channels the running daemon has (its Manager's `Channels`, followed as they come and
// go); a name typed by hand may be a channel the daemon does not have yet.
/* exported makePreferencesPage */
'use strict';

/** The boxes of the top bar, in the order of the settings' enum. */
const BOXES = ['Left', 'Center', 'Right'];

/**
 * An Adw.PreferencesPage editing `settings` (org.gnome.shell.extensions.tickerd); `Names` is
 * names.js's `TickerdNames`.
 */
function makePreferencesPage({Adw, Gio, Gtk, Names}, settings) {
    const page = new Adw.PreferencesPage({title: 'Ticker', icon_name: 'preferences-system-symbolic'});
    const group = new Adw.PreferencesGroup({
        title: 'Ticker',
        description: 'The tickerd channel shown in the top bar, and where.',
    });
    page.add(group);

    const channel = new Adw.EntryRow({title: 'Channel', show_apply_button: true});
    channel.text = settings.get_string('channel');
    const valid = () => Names.isChannelName(channel.text);
    const apply = () => {
        if (valid() && channel.text !== settings.get_string('channel'))
            settings.set_string('channel', channel.text);
    };
    channel.connect('changed', () => {
        if (valid())
            channel.remove_css_class('error');
        else
            channel.add_css_class('error');
    });
    channel.connect('apply', apply);
    group.add(channel);

    // The daemon's channels, in a list under a button at the end of the row; while there are
    // none to offer, the list says why.
    const why = new Gtk.Label({margin_top: 6, margin_bottom: 6, margin_start: 6, margin_end: 6, wrap: true, max_width_chars: 30});
    const listed = new Gtk.ListBox({selection_mode: Gtk.SelectionMode.NONE, css_classes: ['navigation-sidebar']});
    listed.set_placeholder(why);
    const choose = new Gtk.MenuButton({
        icon_name: 'view-list-symbolic', valign: Gtk.Align.CENTER, css_classes: ['flat'],
        tooltip_text: 'The channels tickerd has', popover: new Gtk.Popover({child: listed}),
    });
    listed.connect('row-activated', (list, row) => {
        choose.popdown();
        channel.text = row.get_child().label;
        apply();
    });
    channel.add_suffix(choose);
    /** Lists the channels of `proxy`'s daemon; `null` while the bus has not answered yet. */
    const showChannels = proxy => {
        for (let row = listed.get_row_at_index(0); row; row = listed.get_row_at_index(0))
            listed.remove(row);
        const paths = proxy?.g_name_owner ? proxy.get_cached_property('Channels')?.deepUnpack() ?? [] : [];
        const names = paths.map(path => Names.channelOfPath(path)).filter(name => name !== null).sort();
        for (const name of names)
            listed.append(new Gtk.Label({label: name, xalign: 0}));
        why.label = proxy ? 'tickerd is not running; type the channel name' : 'Asking tickerd…';
    };
    showChannels(null);
    // Not started by the page: a daemon that is not running is said to be so.
    const cancellable = new Gio.Cancellable();
    let manager = null;
    const handlers = [];
    Gio.DBusProxy.new_for_bus(Gio.BusType.SESSION, Gio.DBusProxyFlags.DO_NOT_AUTO_START, null,
        Names.busName, Names.managerPath, Names.managerInterface, cancellable, (source, result) => {
            try {
                manager = Gio.DBusProxy.new_for_bus_finish(result);
            } catch (e) {
                if (!e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED)) {
                    logError(e, 'tickerd preferences: cannot reach the session bus');
                    why.label = 'The session bus cannot be reached; type the channel name';
                }
                return;
            }
            handlers.push(manager.connect('g-properties-changed', () => showChannels(manager)));
            handlers.push(manager.connect('notify::g-name-owner', () => showChannels(manager)));
            showChannels(manager);
        });

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
    page.connect('destroy', () => {
        settings.disconnect(changedId);
        cancellable.cancel();
        handlers.forEach(id => manager.disconnect(id));
    });
    return page;
}
