// The ticker itself, shared by the Plasma 5 and Plasma 6 packages (plain QtQuick, no Plasma
// imports). It draws the frames the shared Timeline rules give, shifted by the sub-cell offset at
// the display's frame rate; while the text moves each frame has one cell more before the first
// column and two past the last, under the clip, so a wide character cut by an edge is drawn whole
// and slides out (or in) like any other. Its frame clock runs only while something moves. It
// long-polls `tickerctl timeline` for the channel's state; the package's main.qml only runs the
// commands it asks for on Plasma's executable data engine (whose QML module differs between Plasma
// 5 and 6). When the daemon's name goes away (an upgrade, a restart, a crash the unit restarts) it
// keeps drawing the Timeline it has for a grace period (`grace`, 2 s) and hides only if the daemon
// is not back by then: a restart does not blink. A left click runs `tickerctl activate` for the
// column under the pointer (it opens the message's link with xdg-open and tells the daemon); a
// middle click pauses or resumes the channel.
import QtQuick 2.15
import "../code/timeline.js" as T
import "../code/frames.js" as Frames

Item {
    id: ticker

    /// The channel shown.
    property string channel: "main"
    /// The width in cells (the font's real cell width times this is the widget's width).
    property int columns: 40
    /// The font it draws and measures with.
    property font font
    /// The font of emoji that text fonts also have as plain symbols (☕, ❤️): the colour one.
    readonly property font emojiFont: Qt.font({family: "Noto Color Emoji", pointSize: font.pointSize > 0 ? font.pointSize : 10})
    /// The text colour.
    property color color: "black"
    /// The channel's full text (for the tooltip). While `fullTextWanted` it is the whole tape as
    /// Render would show it now to a viewer wide enough, counters at their value of the moment,
    /// kept current while they count; otherwise it is left as last set (the daemon's text that
    /// came with the last Timeline, counters as the daemon wrote it, or the last one computed),
    /// and it is brought up to date the moment `fullTextWanted` turns true.
    readonly property string fullText: feed.text
    /// Whether `fullText` may be seen now (main.qml: the pointer is over the widget, the only
    /// time its tooltip can show). While false, counting counters cost the full text nothing:
    /// it is not recomputed per display frame nor woken for. True unless told otherwise.
    property bool fullTextWanted: true
    /// Whether there is nothing to show (no daemon, no channel, no message): the widget hides. The
    /// daemon's name going away makes it true only once `grace` has passed without its return
    /// (a failed poll, the bus lost, makes it true at once; so does a channel reported missing).
    readonly property bool empty: feed.state !== "online" || feed.messages === 0
    /// Whether the channel is paused.
    readonly property bool paused: timeline !== null && timeline.paused !== null
    /// One cell's width in pixels, measured on a long run of the font's digits.
    readonly property real cellWidth: probe.advance.width > 0 ? probe.advance.width / 40 : probe.contentWidth / 40
    /// The width it declares to the daemon: the cells it shows, plus one for the sub-cell shift.
    readonly property int declaredColumns: columns + 1
    /// The tickerctl command line (a path or a name on PATH, options may follow: it is not quoted).
    property string tickerctl: "tickerctl"
    /// The Timeline in effect, or null. While the daemon is away within `grace` it is the one
    /// read before it left (frames are a pure function of time: they stay exact).
    property var timeline: null
    /// How long (ms) the widget keeps drawing its Timeline once the daemon's name goes away,
    /// waiting for it to come back (docs/DESIGN.md: 2 s for every panel client).
    readonly property int grace: 2000

    /// Asks for a shell command line to run; main.qml calls `finished` when it has exited.
    signal start(string command)
    /// Asks for a command started earlier to be forgotten (its output is no longer wanted).
    signal forget(string command)

    implicitWidth: empty ? 0 : Math.ceil(columns * cellWidth)
    implicitHeight: Math.ceil(metrics.height)

    QtObject {
        id: feed
        property string state: "offline"
        property string text: ""
        property int messages: 0
        property string digest: ""
        property string polling: ""
        property bool ready: false
        property string text_: ""
        property real offset: 0
        property bool moving: false
        // Cells of the frame drawn before the first column (1 while the text moves).
        property int before: 0
        // The instant (µs) of the frame drawn: a click asks about that frame, not a later one.
        property real drawnAt: 0
        // When the full text may change next (µs; Infinity: not until the Timeline changes).
        property real textAt: 0
        // When the grace ends (ms since the epoch, as Date.now()), while the daemon is away.
        property real graceEnds: 0
    }

    FontMetrics {
        id: metrics
        font: ticker.font
    }
    // Measures a cell as the runs below lay it out (same font, same rendering).
    Text {
        id: probe
        visible: false
        text: "0000000000000000000000000000000000000000"
        font: ticker.font
        renderType: Text.QtRendering
    }

    /// Starts a long poll for the next change of the channel (dropping one under way).
    function restartPoll() {
        if (feed.polling !== "")
            forget(feed.polling);
        feed.polling = pollCommand();
        start(feed.polling);
    }

    /// A command has exited: a poll's output is taken and the next poll starts; a failed poll
    /// (tickerctl missing, no bus) is tried again later, waiting twice as long each time (3 s to
    /// 1 min); a click's command that failed is logged with its standard error.
    function finished(command, exitCode, stdout, stderr) {
        if (command !== feed.polling) {
            // A click's command (activate, pause, resume): its failure is logged, with its reason.
            if (exitCode !== 0)
                console.log("tickerd-plasma: " + command + " failed (exit " + exitCode + "): " + String(stderr || "").trim());
            return;
        }
        feed.polling = "";
        if (exitCode === 0 && receive(stdout)) {
            retry.interval = 3000;
            restartPoll();
        } else {
            // No bus (the session ending) or no tickerctl: hidden at once, with no grace.
            if (feed.state !== "offline")
                goOffline("poll failed");
            console.log("tickerd-plasma: poll failed (exit " + exitCode + "), again in " + retry.interval + " ms");
            retry.start();
            retry.interval = Math.min(2 * retry.interval, 60000);
        }
    }

    /// The shell command that waits for the next change of the channel (long poll).
    function pollCommand() {
        var command = "exec " + tickerctl + " timeline --channel " + quote(channel) + " --columns " + declaredColumns;
        return feed.digest === "" ? command : command + " --after " + feed.digest;
    }

    /// The shell command that pauses or resumes the channel.
    function toggleCommand() {
        return "exec " + tickerctl + (paused ? " resume " : " pause ") + quote(channel);
    }

    /// The shell command that activates the message under pixel `x` of the ticker (the strip is
    /// shifted by the frame's offset and the cells drawn before the first column), or "" when no
    /// cell of the frame drawn is there.
    function activateCommand(x) {
        var column = Math.floor((x - strip.x) / cellWidth) - feed.before;
        // The cell partly shown past the last column exists only while the text scrolls: it is
        // the last column of the frame one cell wider.
        var width = column < columns ? columns : columns + 1;
        if (!(cellWidth > 0) || column < 0 || column >= width || (width > columns && !feed.moving))
            return "";
        return "exec " + tickerctl + " activate --channel " + quote(channel) + " --columns " + width
            + " --column " + column + " --at @" + Math.round(feed.drawnAt) + "us";
    }

    function quote(text) {
        return "'" + String(text).replace(/'/g, "'\\''") + "'";
    }

    /// Takes one line of `tickerctl timeline`; false when it is not one.
    function receive(stdout) {
        var state;
        try {
            state = JSON.parse(stdout);
        } catch (error) {
            return false;
        }
        if (!state || typeof state.digest !== "string")
            return false;
        feed.digest = state.digest;
        if (state.state === "offline" && feed.state === "online" && timeline !== null && !empty) {
            // The daemon's name went away while the widget shows its Timeline: it keeps drawing
            // it (the next poll, after this digest, waits for the name to come back) and hides
            // only if the grace passes first. A second offline line does not extend the grace.
            if (!away.running) {
                feed.graceEnds = Date.now() + grace;
                away.interval = grace;
                away.start();
                console.log("tickerd-plasma: daemon away, drawing on for " + grace + " ms digest=" + feed.digest);
            }
            return true;
        }
        if (away.running) {
            away.stop();
            console.log("tickerd-plasma: daemon back within the grace");
        }
        feed.state = state.state;
        feed.text = state.text || "";
        feed.messages = state.messages || 0;
        feed.textAt = 0;
        timeline = state.state === "online" && state.timeline ? new T.Timeline(state.timeline) : null;
        console.log("tickerd-plasma: timeline " + feed.state + " messages=" + feed.messages +
                    " paused=" + paused + " digest=" + feed.digest);
        redraw();
        return true;
    }

    /// Drops the Timeline and hides as offline (the grace over, or the poll failed).
    function goOffline(why) {
        console.log("tickerd-plasma: timeline offline messages=0 paused=false digest=" + feed.digest + " (" + why + ")");
        away.stop();
        feed.state = "offline";
        feed.text = "";
        feed.messages = 0;
        feed.textAt = 0;
        timeline = null;
        redraw();
    }

    /// Sets the full text to the channel's whole text at `now` as Render would show it to a viewer
    /// wide enough (counters at their value of the moment), and notes when it may change next
    /// (a counter's next number: every display frame while one counts fast). Runs only while
    /// `fullTextWanted`.
    function refreshText(now) {
        var wide = Math.max(columns, timeline.cells.contentWidth + 1);
        var frame = timeline.frame(now, wide);
        feed.text = frame.text.trim();
        var next = timeline.schedule(now, wide, frame);
        feed.textAt = next.animate ? now : (next.at === null ? Infinity : next.at);
    }

    /// Draws the frame of now and decides whether the clock keeps running.
    function redraw() {
        if (timeline === null || empty) {
            clock.running = false;
            wake.stop();
            feed.text_ = "";
            runsModel.model = [];
            return;
        }
        var now = Date.now() * 1000;
        // While it may be seen the full text follows its counters whether or not they are in
        // view; while the text scrolls this is checked every display frame, otherwise at the
        // wake-ups below. While it cannot be seen it is left alone (no wake-up for it either).
        if (fullTextWanted && now >= feed.textAt)
            refreshText(now);
        var textAt = fullTextWanted ? feed.textAt : Infinity;
        // One cell before the first column and two past the last: the cells partly in view.
        var frame = timeline.frame(now, columns, 2, 1);
        feed.moving = frame.moving;
        feed.before = frame.before;
        feed.drawnAt = now;
        if (frame.text !== feed.text_) {
            feed.text_ = frame.text;
            runsModel.model = Frames.runs(frame.text);
        }
        strip.x = -(frame.before + frame.offset) * cellWidth;
        var next = timeline.schedule(now, columns, frame);
        clock.running = next.animate;
        // Nothing moves now; one wake-up when the frame or the full text may change next.
        var at = next.at === null ? textAt : Math.min(next.at, textAt);
        if (!next.animate && at !== Infinity) {
            wake.interval = Math.max(1, Math.min(Math.ceil((at - now) / 1000), 3600000));
            wake.restart();
        } else {
            wake.stop();
        }
    }

    /// Logs where the ticker is in its window (the tests crop their screenshots with it).
    function reportGeometry() {
        // The text line: the runs are centred vertically, one line of the font high.
        var p = ticker.mapToItem(null, 0, (height - metrics.height) / 2);
        console.log("tickerd-plasma: geometry " + Math.round(p.x) + " " + Math.floor(p.y) + " " +
                    Math.round(width) + " " + Math.ceil(metrics.height + 1) + " cell " + cellWidth + " layout " + implicitWidth);
    }

    onFullTextChanged: console.log("tickerd-plasma: tooltip " + fullText)
    onWidthChanged: reportGeometry()
    onImplicitWidthChanged: reportGeometry()
    onHeightChanged: reportGeometry()
    onXChanged: reportGeometry()
    onYChanged: reportGeometry()
    onColumnsChanged: redraw()
    // The full text is brought up to date as it comes into view (textAt says whether it may have
    // changed since), and its wake-ups stop when it leaves.
    onFullTextWantedChanged: redraw()
    // Polls start once everything is built (settings arriving at creation start nothing); a new
    // channel or width starts a new poll (the digest of another channel means nothing).
    onChannelChanged: {
        feed.digest = "";
        // The Timeline held through the grace is the old channel's: not kept for the new one.
        if (away.running)
            goOffline("channel changed");
        if (feed.ready)
            restartPoll();
    }
    onDeclaredColumnsChanged: {
        if (feed.ready)
            restartPoll();
    }
    Component.onCompleted: {
        feed.ready = true;
        restartPoll();
    }
    onCellWidthChanged: redraw()

    // The frame clock: an animation ticks once per display frame while it runs.
    NumberAnimation {
        id: clock
        target: feed
        property: "offset"
        from: 0
        to: 1
        duration: 1000
        loops: Animation.Infinite
        running: false
        onRunningChanged: console.log("tickerd-plasma: clock " + (running ? "running" : "stopped"))
    }
    Connections {
        target: feed
        function onOffsetChanged() { ticker.redraw(); }
    }
    Timer {
        id: retry
        interval: 3000
        onTriggered: ticker.restartPoll()
    }
    // The grace: started when the daemon's name goes away, stopped when it comes back. A QML
    // Timer is coarse (it may fire up to 5% early): one that fires before the grace has ended
    // waits again for the rest, so the widget never hides before the 2 s are over.
    Timer {
        id: away
        repeat: false
        onTriggered: {
            var left = feed.graceEnds - Date.now();
            if (left > 0) {
                interval = Math.min(Math.ceil(left), ticker.grace);
                start();
            } else {
                ticker.goOffline("the daemon did not come back within " + ticker.grace + " ms");
            }
        }
    }
    Timer {
        id: wake
        repeat: false
        onTriggered: ticker.redraw()
    }

    Item {
        anchors.fill: parent
        clip: true
        visible: !ticker.empty

        Item {
            id: strip
            height: parent.height
            width: (ticker.columns + 3) * ticker.cellWidth

            Repeater {
                id: runsModel
                model: []
                delegate: Text {
                    x: modelData.cell * ticker.cellWidth
                    width: modelData.alone ? modelData.cells * ticker.cellWidth : implicitWidth
                    horizontalAlignment: modelData.alone ? Text.AlignHCenter : Text.AlignLeft
                    anchors.verticalCenter: parent.verticalCenter
                    text: modelData.text
                    textFormat: Text.PlainText
                    font: modelData.emoji ? ticker.emojiFont : ticker.font
                    color: ticker.color
                    renderType: Text.QtRendering
                }
            }
        }
    }

    MouseArea {
        anchors.fill: parent
        acceptedButtons: Qt.LeftButton | Qt.MiddleButton
        onClicked: function (mouse) {
            if (mouse.button === Qt.MiddleButton) {
                ticker.start(ticker.toggleCommand());
                return;
            }
            var command = ticker.activateCommand(mouse.x);
            console.log("tickerd-plasma: click at " + mouse.x + (command === "" ? " (no cell)" : ": " + command));
            if (command !== "")
                ticker.start(command);
        }
    }
}
