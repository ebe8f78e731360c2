// The Channel row of the widget's settings page, shared by the Plasma 5 and Plasma 6 packages
// (plain QtQuick Controls, no Plasma imports): a field for the channel's name, and beside it a list
// of the channels the running daemon has (`tickerctl status --json`), from which a pick fills the
// field. A name that is no channel name is said to be so, and so is a daemon that cannot be asked.
// The page's configGeneral.qml runs the command on Plasma's executable data engine (`start`, then
// `finished` with what it printed) and gives the texts, translated.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Layouts 1.15

ColumnLayout {
    id: field

    /// The name in the field (the setting).
    property alias text: name.text
    /// The field itself (a form's label goes beside it).
    readonly property alias field: name
    /// The tickerctl command line (the widget's own setting: a path or a name on PATH, options
    /// may follow; it is not quoted).
    property string tickerctl: "tickerctl"
    /// The channels the daemon has, sorted; empty until it answers, or when it cannot.
    property var channels: []
    /// Why `channels` is empty, once asked ("" while asking, and when there are channels).
    property string unreachable: ""
    /// What the list button says.
    property string listText: "Channels"
    /// Said when the daemon cannot be asked (not running, no bus, no tickerctl).
    property string unreachableText: "tickerd is not running; type the channel name"
    /// Said while the name is no channel name.
    property string badNameText: "A channel name is 1 to 64 of A-Z, a-z, 0-9 and _"
    /// Whether the field holds a channel name.
    readonly property bool valid: /^[A-Za-z0-9_]{1,64}$/.test(name.text)
    /// The command being run, if any.
    property string asking: ""

    /// Asks for `command` to be run; `finished` takes what it printed.
    signal start(string command)

    /// Takes the exit code and output of `command` (`start`); other commands are not this field's.
    function finished(command, exitCode, stdout, stderr) {
        if (command !== asking)
            return false;
        asking = "";
        var names = [];
        try {
            var status = JSON.parse(stdout);
            names = status.channels.map(function (channel) { return String(channel.Name); }).sort();
        } catch (e) {
            names = [];
        }
        channels = exitCode === 0 ? names : [];
        unreachable = channels.length > 0 ? "" : unreachableText;
        return true;
    }

    /// Asks the daemon for its channels again.
    function refresh() {
        asking = "exec " + tickerctl + " status --json";
        start(asking);
    }

    onTickerctlChanged: refresh()
    Component.onCompleted: refresh()

    RowLayout {
        TextField {
            id: name
            objectName: "channelName"
            Layout.fillWidth: true
        }
        ComboBox {
            id: list
            objectName: "channelList"
            model: field.channels
            displayText: field.listText
            enabled: count > 0
            onActivated: name.text = textAt(index)
        }
    }
    Label {
        objectName: "channelNote"
        text: !field.valid ? field.badNameText : field.unreachable
        // Always there, empty when all is well: the form keeps its layout as the note comes and
        // goes (a note that showed and hid resized it, a binding loop in Kirigami's FormLayout).
        color: field.valid ? name.color : "#da4453"
        opacity: field.valid ? 0.7 : 1
    }
}
