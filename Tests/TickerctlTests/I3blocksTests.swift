import Foundation
import Testing
import TestSupport

/// contrib/i3blocks/tickerd-i3blocks as i3blocks runs a persistent JSON block: the block's
/// variables in its environment, one JSON object per click on its stdin (i3blocks' documented
/// interface), the real tickerctl on PATH and a real tickerd on a private bus.
@Suite(.serialized) struct I3blocksTests {
    static let script = PythonVenv.repositoryRoot + "/contrib/i3blocks/tickerd-i3blocks"

    /// A click as i3blocks 1.5 writes it for a persistent block with `format=json`: `{"":""`,
    /// then every block variable (values that are valid JSON bare, others as strings).
    static func click(button: Int, relativeX: Int) -> String {
        #"{"":"","name":"tickerd","command":"tickerd-i3blocks","interval":"persist","format":"json","#
            + #""channel":"links","columns":20,"cell_width":9,"button":\#(button),"x":\#(1500 + relativeX),"y":11,"#
            + #""relative_x":\#(relativeX),"relative_y":11,"width":190,"height":22}"# + "\n"
    }

    @Test func theBlockShowsTheFrameAndAClickActivatesTheMessageUnderThePointer() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["configure", "links", "mode=static", "align=left"])
        _ = try fixture.ok(["post", "--channel", "links", "--id", "alpha", "--link", "https://example.org/alpha", "Alpha"])
        _ = try fixture.ok(["post", "--channel", "links", "--id", "beta", "--link", "https://example.org/beta", #"Beta "q" \"#])
        let frame = try fixture.render(columns: 20, at: 0, channel: "links")
        let beta = try #require(frame.range(of: "Beta")).lowerBound.utf16Offset(in: frame)

        let scratch = try TemporaryDirectory(prefix: "i3blocks")
        let opened = scratch.file("opened")
        let browser = scratch.file("browser")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let clicks = try ChildProcess.makePipe()
        let tools = URL(fileURLWithPath: CLIFixture.tickerctl).deletingLastPathComponent().path
        let block = try ChildProcess("/bin/sh", [Self.script], environment: [
            "PATH": tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "DBUS_SESSION_BUS_ADDRESS": fixture.address,
            // The block's variables, as i3blocks exports them to its command.
            "name": "tickerd", "interval": "persist", "format": "json", "channel": "links", "columns": "20", "cell_width": "9",
            // xdg-open outside a desktop hands http(s) links to $BROWSER.
            "BROWSER": browser, "XDG_CURRENT_DESKTOP": "", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ], extraDescriptors: [0: clicks[0]])
        close(clicks[0])
        var writer: Int32 = clicks[1]
        defer {
            if writer >= 0 { close(writer) }
            if !block.hasExited { block.kill(SIGKILL) }
        }
        func send(_ text: String) {
            var bytes = Array(text.utf8)
            #expect(write(writer, &bytes, bytes.count) == bytes.count)
        }
        func openedLinks() -> String { (try? String(contentsOfFile: opened, encoding: .utf8)) ?? "" }
        func wait(until condition: () throws -> Bool) rethrows -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if try condition() { return true }
                usleep(20_000)
            }
            return try condition()
        }

        // The block's text is the frame (quotes and backslashes escaped), one JSON object a line.
        #expect(block.waitForOutput(timeout: .seconds(10)) { output in
            CLIFixture.jsonLines(output).contains { $0["full_text"] as? String == frame }
        }, "\(block.standardOutput)\n\(block.standardError)")

        // A left click 4 px into Beta's first cell (9 px cells): Beta's link, and Beta activated.
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='Activated'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })
        send(Self.click(button: 1, relativeX: beta * 9 + 4))
        #expect(wait { openedLinks() == "https://example.org/beta\n" }, "\(openedLinks())\n\(block.standardError)")
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("string \"links\"\n   string \"beta\"") })
        // On Alpha's last cell: Alpha's.
        send(Self.click(button: 1, relativeX: 4 * 9 + 8))
        #expect(wait { openedLinks() == "https://example.org/beta\nhttps://example.org/alpha\n" }, "\(openedLinks())")

        // Middle pauses the channel, right resumes it.
        send(Self.click(button: 2, relativeX: 10))
        #expect(try wait { try fixture.property("Paused", channel: "links") as? Bool == true })
        send(Self.click(button: 3, relativeX: 10))
        #expect(try wait { try fixture.property("Paused", channel: "links") as? Bool == false })

        // i3blocks goes away (stdin closes): the block ends, and its follow with it.
        close(writer)
        writer = -1
        #expect(try block.wait(timeout: .seconds(10)) == 0)
        #expect(try wait { try fixture.property("Subscribers", channel: "links") as? NSNumber == 0 })
    }
}
