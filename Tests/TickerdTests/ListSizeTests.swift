import Foundation
import TestSupport
import Testing

/// A list larger than a bus message may be is refused with a named error, and tickerd stays on
/// the bus: `dbus-daemon` disconnects the sender of a message over its `max_message_size`
/// (32 MiB unless configured), which a full daemon's `List ""` used to be.
@Suite struct ListSizeTests {
    @Test func aListLargerThanABusMessageIsRefusedAndTickerdStaysOnTheBus() throws {
        // 34 scheduled messages of a million bytes each (not on any tape): 34 MB of texts to list.
        let text = String(repeating: "x", count: 1_000_000)
        var config = "[limits]\nmessage-length = 1000000\nmessage-bytes = 1000000\nmessages = 40\n"
        config += "\n[channel.side]\nspeed = 8\n"
        for index in 0..<34 {
            config += "\n[[message]]\nid = \"big-\(index)\"\ntext = \"\(text)\"\nstart = \"@4000000000\"\n"
        }
        config += "\n[[message]]\nid = \"small\"\nchannel = \"side\"\ntext = \"a small one\"\n"
        let fixture = try DaemonFixture(config: config)
        let list = "\(DaemonFixture.control).List"
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, list, ["''"])
            == "io.github.tickerd.Ticker1.Error.LimitExceeded")
        // Still on the bus and serving: another channel lists in full.
        let side = try fixture.gdbus(DaemonFixture.managerPath, list, ["side"])
        #expect(side.status == 0, "\(side.stderr)")
        #expect(side.stdout.contains("'small'") && side.stdout.contains("a small one"))
    }
}
