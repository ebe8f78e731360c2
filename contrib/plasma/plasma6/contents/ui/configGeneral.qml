// The widget's settings page (Plasma 6). The Channel row (ChannelField.qml, shared) lists the
// daemon's channels, asked with tickerctl on the executable data engine.
import QtQuick
import QtQuick.Controls
import org.kde.kirigami as Kirigami
import org.kde.kcmutils as KCM
import org.kde.plasma.plasma5support as P5Support

KCM.SimpleKCM {
    property alias cfg_channel: channel.text
    property alias cfg_columns: columns.value
    property alias cfg_fontFamily: fontFamily.text
    property alias cfg_tickerctl: tickerctl.text

    Kirigami.FormLayout {
        ChannelField {
            id: channel
            Kirigami.FormData.label: i18n("Channel:")
            Kirigami.FormData.buddyFor: channel.field
            tickerctl: tickerctl.text || "tickerctl"
            listText: i18n("Channels")
            unreachableText: i18n("tickerd is not running; type the channel name")
            badNameText: i18n("A channel name is 1 to 64 of A-Z, a-z, 0-9 and _")
            onStart: command => engine.connectSource(command)
        }
        SpinBox { id: columns; from: 1; to: 4096; Kirigami.FormData.label: i18n("Width in cells:") }
        TextField { id: fontFamily; Kirigami.FormData.label: i18n("Font family (monospace):") }
        TextField { id: tickerctl; Kirigami.FormData.label: i18n("tickerctl command:") }
    }

    // Runs the Channel row's command; each source is one command, done when it has exited.
    P5Support.DataSource {
        id: engine
        engine: "executable"
        connectedSources: []
        onNewData: (sourceName, data) => {
            disconnectSource(sourceName);
            channel.finished(sourceName, data["exit code"], data["stdout"], data["stderr"]);
        }
    }
}
