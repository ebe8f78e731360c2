import Foundation
import Testing
import TestSupport

/// Resume from suspend: logind's PrepareForSleep(false) makes the daemon re-evaluate at once.
/// A stand-in logind (Debian's python3 + Gio; a pyenv python has no gi) owns org.freedesktop.login1 on the private bus and emits it.
@Suite struct SleepResumeTests {
    static let fakeLogind = #"""
        import sys
        from gi.repository import Gio, GLib
        bus = Gio.DBusConnection.new_for_address_sync(
            sys.argv[1], Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                      GLib.Variant("(su)", ("org.freedesktop.login1", 4)), None, 0, -1, None)
        for going in (True, False):
            bus.emit_signal(None, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
                            GLib.Variant("(b)", (going,)))
        bus.flush_sync(None)
        print("emitted", flush=True)
        """#

    @Test func prepareForSleepFalseReEvaluatesOnce() throws {
        let fixture = try DaemonFixture()
        let work = try TemporaryDirectory()
        try Self.fakeLogind.write(toFile: work.file("logind.py"), atomically: true, encoding: .utf8)
        let logind = try ChildProcess.run("/usr/bin/python3", [work.file("logind.py"), fixture.address])
        #expect(logind.status == 0, "\(logind.stderr)")
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) {
            $0.contains("resumed from suspend; re-evaluating the schedule")
        })
        // Going to sleep (true) is not a resume: exactly one re-evaluation was logged.
        let log = fixture.daemon.process.standardError
        #expect(log.components(separatedBy: "resumed from suspend").count - 1 == 1)
    }
}
