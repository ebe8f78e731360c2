// Drawing runs for the Plasma widget's frames. The frames themselves come from the shared
// Timeline rules (timeline.js `frame`, the file the GNOME extension loads); this only splits a
// frame's text into pieces drawn at their own cells, so each cluster sits where Render puts it
// whatever advance the font's fallbacks give wide characters.
.pragma library
.import "timeline.js" as T

/** `text` as runs drawn at their cells: `[{cell, text, wide}]` (zero-width clusters stay attached). */
function runs(text) {
    var result = [];
    var parts = T.clusters(text);
    var cell = 0;
    var run = null;
    for (var i = 0; i < parts.length; i++) {
        var width = T.cellWidth(parts[i]);
        if (width === 1 && run !== null) {
            run.text += parts[i];
        } else if (width === 1) {
            run = {cell: cell, text: parts[i], wide: false};
            result.push(run);
        } else if (width === 2) {
            result.push({cell: cell, text: parts[i], wide: true});
            run = null;
        } else if (result.length > 0) {
            result[result.length - 1].text += parts[i];
        }
        cell += width;
    }
    return result;
}
