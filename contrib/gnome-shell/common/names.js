// The daemon's D-Bus names (docs/DESIGN.md §3) and its rule for channel names, written once for
// the extension's item, its place in the bar and its preferences. Import-free like the other
// shared files: each form passes it on (the ES-module build appends `export {TickerdNames};`).
/* exported TickerdNames */
'use strict';

/** The names the daemon gives channels: 1 to 64 of A-Z, a-z, 0-9 and _. */
const CHANNEL_NAME_RULE = /^[A-Za-z0-9_]{1,64}$/;

var TickerdNames = Object.freeze({
    busName: 'io.github.tickerd.Ticker1',
    managerPath: '/io/github/tickerd/Ticker1',
    managerInterface: 'io.github.tickerd.Ticker1.Manager',
    channelInterface: 'io.github.tickerd.Ticker1.Channel',

    /** The object path of channel `name`. */
    channelPath(name) {
        return `${this.managerPath}/channel/${name}`;
    },

    /** The channel a channel object path names, or null for any other path. */
    channelOfPath(path) {
        const prefix = `${this.managerPath}/channel/`;
        const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
        return this.isChannelName(name) ? name : null;
    },

    /** Whether `text` is a channel name. */
    isChannelName(text) {
        return CHANNEL_NAME_RULE.test(text);
    },

    /** The setting's channel when it is a channel name, else `main`. */
    channelName(setting) {
        return this.isChannelName(setting) ? setting : 'main';
    },
});
