// The tickerd item in the top bar as the extension's settings say (schemas/: the channel, the
// width in pixels and the box of the bar). Shared by both forms of the extension like
// indicator.js; a change of any setting builds the item again, so the new channel is read and
// the new width declared to the daemon at once.
/* exported PanelItem */
'use strict';

/**
 * Keeps one item (`new Indicator({channel, widthPx})`) in `panel`'s status area as `settings`
 * say, until `destroy()`, which removes it and stops following the settings.
 */
var PanelItem = class PanelItem {
    constructor({Indicator, Names, panel, settings, log}) {
        this._Indicator = Indicator;
        this._Names = Names;
        this._panel = panel;
        this._settings = settings;
        this._log = log;
        this._indicator = null;
        this._build();
        this._changedId = settings.connect('changed', () => {
            this._indicator.destroy();
            this._build();
        });
    }

    /** The item now in the bar. */
    get indicator() {
        return this._indicator;
    }

    _build() {
        const setting = this._settings.get_string('channel');
        const channel = this._Names.channelName(setting);
        if (channel !== setting)
            this._log(`tickerd: '${setting}' is no channel name (1 to 64 of A-Z, a-z, 0-9 and _); showing main`);
        const box = this._settings.get_string('position');
        this._indicator = new this._Indicator({channel, widthPx: this._settings.get_uint('width')});
        // Beside the clock in the centre, after Activities on the left, first on the right.
        this._panel.addToStatusArea('tickerd', this._indicator, box === 'right' ? 0 : 1, box);
    }

    destroy() {
        this._settings.disconnect(this._changedId);
        this._indicator.destroy();
        this._indicator = null;
    }
};
