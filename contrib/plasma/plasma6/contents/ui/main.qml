// tickerd Ticker for Plasma 6: the same shared Ticker and feed as the Plasma 5 package; only the
// root type (PlasmoidItem), the data engine's module (plasma5support) and the theme's font
// (Kirigami) differ. Not run on this machine (Debian 12 ships Plasma 5.27): see the README.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.plasma5support as P5Support
import org.kde.kirigami as Kirigami

PlasmoidItem {
    id: root

    readonly property string tickerctl: Plasmoid.configuration.tickerctl || "tickerctl"

    preferredRepresentation: fullRepresentation
    Plasmoid.status: ticker.empty ? PlasmaCore.Types.HiddenStatus : PlasmaCore.Types.ActiveStatus
    toolTipMainText: ticker.paused ? i18n("tickerd (paused; click to resume)") : i18n("tickerd (click to pause)")
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
        tickerctl: root.tickerctl
        font: Qt.font({family: Plasmoid.configuration.fontFamily || "monospace", pointSize: Kirigami.Theme.defaultFont.pointSize})
        color: Kirigami.Theme.textColor
        visible: !empty
        onRun: command => runner.connectSource(command)
        onChannelChanged: root.restartPoll()
        onDeclaredColumnsChanged: root.restartPoll()
        Component.onCompleted: root.restartPoll()
    }

    // Shown inline (full representation), the widget gets no tooltip from its container: its own.
    PlasmaCore.ToolTipArea {
        anchors.fill: parent
        mainText: root.toolTipMainText
        subText: root.toolTipSubText
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
    P5Support.DataSource {
        id: poller
        engine: "executable"
        connectedSources: []
        onNewData: (sourceName, data) => {
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
    P5Support.DataSource {
        id: runner
        engine: "executable"
        connectedSources: []
        onNewData: sourceName => disconnectSource(sourceName)
    }
    // A failed poll (tickerctl missing, no bus) is tried again a little later.
    Timer {
        id: retry
        interval: 3000
        onTriggered: root.poll()
    }
}
