// tickerd Ticker for Plasma 6: the same shared Ticker as the Plasma 5 package; only the root type
// (PlasmoidItem), the data engine's module (plasma5support) and the theme's font (Kirigami)
// differ. Not run on this machine (Debian 12 ships Plasma 5.27): see the README.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.plasma5support as P5Support
import org.kde.kirigami as Kirigami

PlasmoidItem {
    id: root

    preferredRepresentation: fullRepresentation
    Plasmoid.status: ticker.empty ? PlasmaCore.Types.HiddenStatus : PlasmaCore.Types.ActiveStatus
    toolTipMainText: ticker.paused ? i18n("tickerd (paused; middle-click to resume, click to open a message)") : i18n("tickerd (click to open a message, middle-click to pause)")
    toolTipSubText: ticker.fullText
    Plasmoid.backgroundHints: PlasmaCore.Types.NoBackground

    Layout.preferredWidth: ticker.implicitWidth
    Layout.minimumWidth: ticker.implicitWidth
    Layout.maximumWidth: ticker.implicitWidth
    Layout.preferredHeight: ticker.implicitHeight

    Ticker {
        id: ticker
        anchors.fill: parent
        channel: Plasmoid.configuration.channel || "main"
        columns: Plasmoid.configuration.columns
        tickerctl: Plasmoid.configuration.tickerctl || "tickerctl"
        font: Qt.font({family: Plasmoid.configuration.fontFamily || "monospace", pointSize: Kirigami.Theme.defaultFont.pointSize})
        color: Kirigami.Theme.textColor
        visible: !empty
        fullTextWanted: tip.containsMouse
        onStart: command => engine.connectSource(command)
        onForget: command => engine.disconnectSource(command)
    }

    // Shown inline (full representation), the widget gets no tooltip from its container: its own.
    // Being always the full representation (preferredRepresentation, no switch sizes), this is the
    // only tooltip that shows the full text; it shows only while it holds the pointer (and for
    // the 200 ms it takes to hide once the pointer leaves, its text then standing still), so the
    // Ticker keeps the full text current only then, bringing it up to date as the pointer comes.
    PlasmaCore.ToolTipArea {
        id: tip
        anchors.fill: parent
        mainText: root.toolTipMainText
        subText: root.toolTipSubText
    }

    // Runs the Ticker's commands; each source is one command, done when it has exited.
    P5Support.DataSource {
        id: engine
        engine: "executable"
        connectedSources: []
        onNewData: (sourceName, data) => {
            disconnectSource(sourceName);
            ticker.finished(sourceName, data["exit code"], data["stdout"], data["stderr"]);
        }
    }
}
