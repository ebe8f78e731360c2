// The widget's settings page (Plasma 5).
import QtQuick 2.15
import QtQuick.Controls 2.15
import org.kde.kirigami 2.20 as Kirigami

Kirigami.FormLayout {
    property alias cfg_channel: channel.text
    property alias cfg_columns: columns.value
    property alias cfg_fontFamily: fontFamily.text
    property alias cfg_tickerctl: tickerctl.text

    TextField { id: channel; Kirigami.FormData.label: i18n("Channel:") }
    SpinBox { id: columns; from: 1; to: 4096; Kirigami.FormData.label: i18n("Width in cells:") }
    TextField { id: fontFamily; Kirigami.FormData.label: i18n("Font family (monospace):") }
    TextField { id: tickerctl; Kirigami.FormData.label: i18n("tickerctl command:") }
}
