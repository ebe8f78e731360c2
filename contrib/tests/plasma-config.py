#!/usr/bin/python3
"""The Plasma 5 widget's settings page (contents/ui/configGeneral.qml of the package, with its
ChannelField.qml and its executable data engine), shown in a window on the test's X display and
used as a person would, checked against the daemon on the session bus:

* the Channel row's list offers the channels `tickerctl status --json` names (config-list.png:
  the list open);
* a channel picked from it fills the field, and the page's `cfg_channel` (the setting) is it;
* a name that is no channel name is said to be so;
* with a tickerctl command that reaches no daemon the list offers nothing and says tickerd is not
  running.

Plasma gives its pages `i18n` from its own context object; here the window gives the same name,
returning the text as it is.

    plasma-config.py PACKAGE ARTIFACTS

Prints one line per check and exits 0 when all hold, else 1 with what differed.
"""
import json
import os
import subprocess
import sys
import time

from PyQt5.QtCore import QEventLoop, QObject, QTimer, QUrl, pyqtSlot, qInstallMessageHandler
from PyQt5.QtGui import QGuiApplication
from PyQt5.QtQml import QQmlEngine, QQmlExpression
from PyQt5.QtQuick import QQuickView


class Translator(QObject):
    """What Plasma's context gives a page: `i18n(text)`, here the text itself."""

    @pyqtSlot(str, result=str)
    def i18n(self, text):
        return text


def main():
    package, artifacts = sys.argv[1], sys.argv[2]
    # What QML says about the page's own files, or of a binding loop anywhere in it (Kirigami's
    # layout included): the page must load and lay out without a word.
    complaints = []

    def listen(kind, context, message):
        if package in message or 'Binding loop' in message:
            complaints.append(message)
        print(message, file=sys.stderr)
    qInstallMessageHandler(listen)
    app = QGuiApplication(sys.argv)
    view = QQuickView()
    translator = Translator()
    view.rootContext().setContextObject(translator)
    view.setResizeMode(QQuickView.SizeRootObjectToView)
    view.resize(560, 260)
    view.setSource(QUrl.fromLocalFile(os.path.join(package, 'contents', 'ui', 'configGeneral.qml')))
    if view.status() != QQuickView.Ready:
        print(f'FAIL: the page did not load: {[error.toString() for error in view.errors()]}')
        return 1
    page = view.rootObject()
    # What Plasma gives the page: the settings, here their defaults (contents/config/main.xml).
    for key, value in (('cfg_channel', 'main'), ('cfg_columns', 40), ('cfg_fontFamily', 'monospace'),
                       ('cfg_tickerctl', 'tickerctl')):
        page.setProperty(key, value)
    view.show()

    def evaluate(scope, text):
        """`text` evaluated with `scope`'s properties and methods as names."""
        expression = QQmlExpression(QQmlEngine.contextForObject(page), scope, text)
        value = expression.evaluate()
        if isinstance(value, tuple):
            value = value[0]
        if expression.hasError():
            raise RuntimeError(f'{text}: {expression.error().toString()}')
        return value.toVariant() if hasattr(value, 'toVariant') else value

    field = evaluate(page, 'channel')
    name, choices, note = (page.findChild(QObject, key) for key in ('channelName', 'channelList', 'channelNote'))
    if None in (name, choices, note):
        print(f'FAIL: the Channel row lacks a part (field, list, note: {name}, {choices}, {note})')
        return 1

    def spin_until(condition, seconds):
        """Runs the event loop until `condition` holds or `seconds` pass (a 20 ms tick wakes it
        to look at the clock)."""
        deadline = time.monotonic() + seconds
        tick = QTimer()
        tick.start(20)
        while not condition() and time.monotonic() < deadline:
            app.processEvents(QEventLoop.AllEvents | QEventLoop.WaitForMoreEvents)
        tick.stop()
        return condition()

    failures = []

    def check(holds, what):
        print(('ok: ' if holds else 'FAIL: ') + what)
        if not holds:
            failures.append(what)

    status = json.loads(subprocess.run(['tickerctl', 'status', '--json'], check=True, capture_output=True,
                                       text=True).stdout)
    daemon = sorted(channel['Name'] for channel in status['channels'])
    listed = lambda: list(evaluate(field, 'channels.join("\\n")').split('\n')) if evaluate(field, 'channels.length') else []
    spin_until(lambda: listed(), 20)
    check(listed() == daemon and 'side' in daemon, f'the Channel row lists the daemon\'s channels {daemon}: {listed()}')

    evaluate(choices, 'popup.open()')
    check(spin_until(lambda: evaluate(choices, 'popup.opened'), 5), 'the list opens')
    view.grabWindow().save(os.path.join(artifacts, 'config-list.png'))
    evaluate(choices, 'popup.close()')

    evaluate(choices, 'activated(find("side"))')
    app.processEvents()
    check(page.property('cfg_channel') == 'side' and name.property('text') == 'side',
          f'side picked from the list is the setting: {page.property("cfg_channel")!r}')

    shown = lambda: note.property('text') if note.property('visible') else '(hidden)'
    name.setProperty('text', 'Bad Name')
    app.processEvents()
    check(shown().startswith('A channel name is'), f'a name that is no channel name is said to be so: {shown()!r}')
    name.setProperty('text', 'side')
    app.processEvents()
    check(shown() == '', f'a channel name is not said to be wrong: {shown()!r}')

    # A command that reaches no daemon (a bus address where none listens).
    page.setProperty('cfg_tickerctl', 'tickerctl --bus unix:path=/nonexistent/tickerd-test-bus')
    spin_until(lambda: evaluate(field, 'unreachable') != '', 20)
    check(listed() == [] and shown().startswith('tickerd is not running') and not choices.property('enabled'),
          f'without a daemon the list offers nothing and says why: {listed()} {shown()!r}')
    view.grabWindow().save(os.path.join(artifacts, 'config-unreachable.png'))
    check(not complaints, f'QML says nothing of the page: {complaints}')
    QTimer.singleShot(0, app.quit)
    app.exec_()
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
