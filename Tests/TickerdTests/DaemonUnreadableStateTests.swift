import DBus
import Foundation
import Testing
import TestSupport

/// A state folder holding a file the daemon cannot read (a journal left by a run as another
/// user, here a folder where the journal should be, which no user can read as a file) is treated
/// as a read-only folder is: the daemon starts, serves, refuses every change with `StorageFailed`
/// (writing over the file could lose what it holds), logs what to fix, and stores again once the
/// file is fixed and it is restarted.
@Suite struct DaemonUnreadableStateTests {
    @Test func anUnreadableJournalStartsServesRefusesChangesAndSaysWhatToFix() throws {
        let fixture = try DaemonFixture()
        let client = try FuzzClient(address: fixture.address)
        let kept = DaemonStorageFaultTests.text("main stored before")
        #expect(DaemonStorageFaultTests.post(client, kept) == nil)
        try fixture.daemon.stop()
        let journal = fixture.daemon.stateDirectory + "/state.journal"
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: false)

        try fixture.daemon.start()
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("cannot read the saved state") },
                "\(fixture.daemon.process.standardError)")
        #expect(fixture.daemon.process.standardError.contains("state.journal"), "the log names the file to fix")
        #expect(DaemonStorageFaultTests.post(client, "refused") == DaemonStorageFaultTests.storageFailed)
        #expect(DaemonStorageFaultTests.post(client, "refused", channel: "brandnew") == DaemonStorageFaultTests.storageFailed)
        #expect(DaemonStorageFaultTests.configureColumns(client, 57) == DaemonStorageFaultTests.storageFailed)
        #expect(try fixture.render(columns: 33, at: 0).text.count == 33, "the daemon serves")
        #expect(FileManager.default.fileExists(atPath: journal), "the unreadable file was left where it is")
        let snapshot = try String(contentsOfFile: fixture.daemon.stateDirectory + "/state.json", encoding: .utf8)
        #expect(snapshot.contains("main stored before"), "the state file was written over")

        try FileManager.default.removeItem(atPath: journal)
        try fixture.daemon.restart()
        #expect(DaemonStorageFaultTests.post(client, "stored after the fix") == nil)
        #expect(!fixture.daemon.process.hasExited)
    }
}
