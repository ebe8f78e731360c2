// tickerd Ticker for Plasma 5 (5.27): the shared Ticker fed by `tickerctl timeline` long-polls
// through the executable data engine (no D-Bus client in QML here, no compiled plugin).
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore

Item {
    id: root

    readonly property string tickerctl: plasmoid.configuration.tickerctl || "tickerctl"

    Plasmoid.preferredRepresentation: Plasmoid.fullRepresentation
    Plasmoid.status: ticker.empty ? PlasmaCore.Types.HiddenStatus : PlasmaCore.Types.ActiveStatus
    Plasmoid.toolTipMainText: ticker.paused ? i18n("tickerd (paused; click to resume)") : i18n("tickerd (click to pause)")
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
        tickerctl: root.tickerctl
        font: Qt.font({family: plasmoid.configuration.fontFamily || "monospace", pointSize: PlasmaCore.Theme.defaultFont.pointSize})
        color: PlasmaCore.Theme.textColor
        visible: !empty
        onRun: runner.connectSource(command)
        onChannelChanged: root.restartPoll()
        onDeclaredColumnsChanged: root.restartPoll()
        Component.onCompleted: root.restartPoll()
    }

    // Shown inline (full representation), the widget gets no tooltip from its container: its own.
    PlasmaCore.ToolTipArea {
        anchors.fill: parent
        mainText: Plasmoid.toolTipMainText
        subText: Plasmoid.toolTipSubText
    }

    property string polling: ""

    function restartPoll() {
        if (polling !== "")
            poller.disconnectSource(polling);
        polling = "";
        poll();
    }

    function poll() {
        polling = ticker.pollCommand(tickerctl);
        poller.connectSource(polling);
    }

    // Long poll: each run prints the state once it differs from the digest held, then exits.
    PlasmaCore.DataSource {
        id: poller
        engine: "executable"
        connectedSources: []
        onNewData: {
            disconnectSource(sourceName);
            if (sourceName !== root.polling)
                return;
            root.polling = "";
            if (data["exit code"] === 0 && ticker.receive(data["stdout"]))
                root.poll();
            else
                retry.start();
        }
    }
    // One-shot commands (pause, resume).
    PlasmaCore.DataSource {
        id: runner
        engine: "executable"
        connectedSources: []
        onNewData: disconnectSource(sourceName)
    }
    // A failed poll (tickerctl missing, no bus) is tried again a little later.
    Timer {
        id: retry
        interval: 3000
        onTriggered: root.poll()
    }
}
