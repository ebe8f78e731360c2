// Drawing runs for the Plasma widget's frames. The frames themselves come from the shared
// Timeline rules (timeline.js `frame`, the file the GNOME extension loads); this only splits a
// frame's text into pieces drawn at their own cells, so each cluster sits where Render puts it
// whatever advance the font's fallbacks give it.
.pragma library
.import "timeline.js" as T

/**
 * Whether a cluster of `cells` cells is an emoji Qt would draw in a text font's plain symbol:
 * one with U+FE0F (emoji presentation asked for), or a two-cell symbol of the BMP (U+2300–U+2BFF:
 * ☕, ⌚, ⚡, ...), which DejaVu Sans also has, small and monochrome. (Emoji past U+1F000 are in
 * no text font here: Qt already takes the colour emoji font for them.)
 */
function isEmoji(cluster, cells) {
    return /\ufe0f/.test(cluster) || (cells === 2 && /^[\u2300-\u2bff]/.test(cluster));
}

/**
 * `text` as pieces drawn at their cells: `[{cell, text, cells, alone, emoji}]`. Printable ASCII goes in
 * runs drawn as one text (the monospace font's own glyphs, a cell each); every other cluster is
 * `alone`, drawn centred in its `cells` cells: wide ones (CJK, emoji) and one-cell ones alike,
 * since a fallback font (Hebrew, Arabic, ...) gives them and the spaces beside them other
 * advances, and a run would reorder right-to-left letters with their neighbours (and join Arabic
 * ones) where Render gives each its cell, left to right. Zero-width clusters stay attached.
 * `emoji` pieces are drawn in the colour emoji font (`isEmoji`).
 */
function runs(text) {
    var result = [];
    var parts = T.clusters(text);
    var cell = 0;
    var run = null;
    for (var i = 0; i < parts.length; i++) {
        var width = T.cellWidth(parts[i]);
        var ascii = /^[\x20-\x7e]$/.test(parts[i]);
        if (ascii && run !== null) {
            run.text += parts[i];
        } else if (ascii) {
            run = {cell: cell, text: parts[i], cells: 1, alone: false};
            result.push(run);
        } else if (width > 0) {
            result.push({cell: cell, text: parts[i], cells: width, alone: true, emoji: isEmoji(parts[i], width)});
            run = null;
        } else if (result.length > 0) {
            result[result.length - 1].text += parts[i];
        }
        cell += width;
    }
    return result;
}
