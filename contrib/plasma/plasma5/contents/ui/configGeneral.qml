// The widget's settings page (Plasma 5). The Channel row (ChannelField.qml, shared) lists the
// daemon's channels, asked with tickerctl on the executable data engine.
import QtQuick 2.15
import QtQuick.Controls 2.15
import org.kde.kirigami 2.20 as Kirigami
import org.kde.plasma.core 2.0 as PlasmaCore

Kirigami.FormLayout {
    property alias cfg_channel: channel.text
    property alias cfg_columns: columns.value
    property alias cfg_fontFamily: fontFamily.text
    property alias cfg_tickerctl: tickerctl.text

    ChannelField {
        id: channel
        Kirigami.FormData.label: i18n("Channel:")
        Kirigami.FormData.buddyFor: channel.field
        tickerctl: tickerctl.text || "tickerctl"
        listText: i18n("Channels")
        unreachableText: i18n("tickerd is not running; type the channel name")
        badNameText: i18n("A channel name is 1 to 64 of A-Z, a-z, 0-9 and _")
        onStart: engine.connectSource(command)
    }
    SpinBox { id: columns; from: 1; to: 4096; Kirigami.FormData.label: i18n("Width in cells:") }
    TextField { id: fontFamily; Kirigami.FormData.label: i18n("Font family (monospace):") }
    TextField { id: tickerctl; Kirigami.FormData.label: i18n("tickerctl command:") }

    // Runs the Channel row's command; each source is one command, done when it has exited.
    PlasmaCore.DataSource {
        id: engine
        engine: "executable"
        connectedSources: []
        onNewData: {
            disconnectSource(sourceName);
            channel.finished(sourceName, data["exit code"], data["stdout"], data["stderr"]);
        }
    }
}
