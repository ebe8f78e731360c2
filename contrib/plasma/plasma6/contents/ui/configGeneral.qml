// The widget's settings page (Plasma 6).
import QtQuick
import QtQuick.Controls
import org.kde.kirigami as Kirigami
import org.kde.kcmutils as KCM

KCM.SimpleKCM {
    property alias cfg_channel: channel.text
    property alias cfg_columns: columns.value
    property alias cfg_fontFamily: fontFamily.text
    property alias cfg_tickerctl: tickerctl.text

    Kirigami.FormLayout {
        TextField { id: channel; Kirigami.FormData.label: i18n("Channel:") }
        SpinBox { id: columns; from: 1; to: 4096; Kirigami.FormData.label: i18n("Width in cells:") }
        TextField { id: fontFamily; Kirigami.FormData.label: i18n("Font family (monospace):") }
        TextField { id: tickerctl; Kirigami.FormData.label: i18n("tickerctl command:") }
    }
}
