// tickerd Ticker for Plasma 5 (5.27): the shared Ticker, whose long polls of `tickerctl timeline`
// run on the executable data engine (QML has no D-Bus client here; no compiled plugin needed).
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore

Item {
    id: root

    Plasmoid.preferredRepresentation: Plasmoid.fullRepresentation
    Plasmoid.status: ticker.empty ? PlasmaCore.Types.HiddenStatus : PlasmaCore.Types.ActiveStatus
    Plasmoid.toolTipMainText: ticker.paused ? i18n("tickerd (paused; middle-click to resume, click to open a message)") : i18n("tickerd (click to open a message, middle-click to pause)")
    Plasmoid.toolTipSubText: ticker.fullText
    Plasmoid.backgroundHints: PlasmaCore.Types.NoBackground

    Layout.preferredWidth: ticker.implicitWidth
    Layout.minimumWidth: ticker.implicitWidth
    Layout.maximumWidth: ticker.implicitWidth
    Layout.preferredHeight: ticker.implicitHeight

    Ticker {
        id: ticker
        anchors.fill: parent
        channel: plasmoid.configuration.channel || "main"
        columns: plasmoid.configuration.columns
        tickerctl: plasmoid.configuration.tickerctl || "tickerctl"
        font: Qt.font({family: plasmoid.configuration.fontFamily || "monospace", pointSize: PlasmaCore.Theme.defaultFont.pointSize})
        color: PlasmaCore.Theme.textColor
        visible: !empty
        fullTextWanted: tip.containsMouse
        onStart: engine.connectSource(command)
        onForget: engine.disconnectSource(command)
    }

    // Shown inline (full representation), the widget gets no tooltip from its container: its own.
    // Being always the full representation (preferredRepresentation, no switch sizes), this is the
    // only tooltip that shows the full text; it shows only while it holds the pointer (and for
    // the 200 ms it takes to hide once the pointer leaves, its text then standing still), so the
    // Ticker keeps the full text current only then, bringing it up to date as the pointer comes.
    PlasmaCore.ToolTipArea {
        id: tip
        anchors.fill: parent
        mainText: Plasmoid.toolTipMainText
        subText: Plasmoid.toolTipSubText
    }

    // Runs the Ticker's commands; each source is one command, done when it has exited.
    PlasmaCore.DataSource {
        id: engine
        engine: "executable"
        connectedSources: []
        onNewData: {
            disconnectSource(sourceName);
            ticker.finished(sourceName, data["exit code"], data["stdout"], data["stderr"]);
        }
    }
}
