import Foundation
import Testing
import TestSupport

/// contrib/i3blocks/tickerd-i3blocks as i3blocks runs a persistent JSON block: under i3blocks 1.5
/// the block's variables in its environment and one JSON object per click on its stdin (i3blocks'
/// documented interface); under 1.4 only the command's options, and a stdin that is i3blocks' own.
/// The real tickerctl on PATH and a real tickerd on a private bus. (contrib/tests/i3blocks-test.sh
/// runs it in the real i3blocks under a real bar.)
@Suite(.serialized) struct I3blocksTests {
    static let script = PythonVenv.repositoryRoot + "/contrib/i3blocks/tickerd-i3blocks"

    /// A click as i3blocks 1.5 writes it for a persistent block with `format=json`: `{"":""`,
    /// then every block variable (values that are valid JSON bare, others as strings).
    static func click(button: Int, relativeX: Int) -> String {
        #"{"":"","name":"tickerd","command":"tickerd-i3blocks","interval":"persist","format":"json","#
            + #""channel":"links","columns":20,"cell_width":9,"button":\#(button),"x":\#(1500 + relativeX),"y":11,"#
            + #""relative_x":\#(relativeX),"relative_y":11,"width":190,"height":22}"# + "\n"
    }

    /// The text a bar shows for a `full_text` that the script escaped as Pango markup.
    static func shownText(_ markup: String) -> String {
        markup.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#92;", with: "\\")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The block's lines i3blocks 1.4 reads whole: a JSON string with no quote or backslash inside,
    /// which it takes up to its first quote without decoding escapes.
    static func readableBy14(_ output: String) -> Bool {
        output.split(separator: "\n").allSatisfy { line in
            line.hasPrefix(#"{"full_text":""#) && line.hasSuffix(#""}"#)
                && !line.dropFirst(14).dropLast(2).contains { $0 == "\"" || $0 == "\\" }
        }
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

        // The block's text is the frame (quotes and backslashes as Pango entities), one JSON object a line.
        #expect(block.waitForOutput(timeout: .seconds(10)) { output in
            CLIFixture.jsonLines(output).contains { ($0["full_text"] as? String).map(Self.shownText) == frame }
        }, "\(block.standardOutput)\n\(block.standardError)")
        #expect(Self.readableBy14(block.standardOutput), "\(block.standardOutput)")

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

    /// Under i3blocks 1.4 the block gets its settings as options (1.4 refuses unknown keys and
    /// exports no block variables) and its stdin is i3blocks' own, non-blocking, carrying the bar's
    /// clicks: the script shows the frame, leaves every click for i3blocks, and ends, its follow
    /// with it, when i3blocks terminates it.
    @Test func underI3blocks14TheOptionsChooseTheChannelAndStdinIsLeftAlone() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["configure", "news", "mode=static", "align=left"])
        _ = try fixture.ok(["post", "--channel", "news", "--id", "a", #"Tom & "Jerry" <b>\o/"#])
        let frame = try fixture.render(columns: 30, at: 0, channel: "news")

        let stdin = try ChildProcess.makePipe()
        defer { close(stdin[0]); close(stdin[1]) }
        // i3blocks 1.4 makes its stdin non-blocking before it starts the blocks.
        #expect(fcntl(stdin[0], F_SETFL, fcntl(stdin[0], F_GETFL) | O_NONBLOCK) == 0)
        var click = Array(#"{"name":"tickerd","button":1,"x":500,"y":10}"#.utf8) + [10]
        #expect(write(stdin[1], &click, click.count) == click.count)
        let tools = URL(fileURLWithPath: CLIFixture.tickerctl).deletingLastPathComponent().path
        let block = try ChildProcess("/bin/sh", [Self.script, "--channel", "news", "--columns", "30", "--cell-width", "9"], environment: [
            "PATH": tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "DBUS_SESSION_BUS_ADDRESS": fixture.address,
            // What i3blocks 1.4 exports to a block's command.
            "BLOCK_NAME": "tickerd", "BLOCK_INSTANCE": "", "BLOCK_BUTTON": "", "BLOCK_X": "", "BLOCK_Y": "",
        ], extraDescriptors: [0: stdin[0]])
        defer { if !block.hasExited { block.kill(SIGKILL) } }

        #expect(block.waitForOutput(timeout: .seconds(10)) { output in
            CLIFixture.jsonLines(output).contains { ($0["full_text"] as? String).map(Self.shownText) == frame }
        }, "\(block.standardOutput)\n\(block.standardError)")
        #expect(Self.readableBy14(block.standardOutput), "\(block.standardOutput)")
        // The click is still there for i3blocks, and the block runs on.
        var unread = [UInt8](repeating: 0, count: 256)
        #expect(read(stdin[0], &unread, unread.count) == click.count)
        #expect(!block.hasExited, "\(block.standardError)")
        #expect(try fixture.property("Subscribers", channel: "news") as? NSNumber == 1)

        block.kill(SIGTERM)
        #expect(try block.wait(timeout: .seconds(10)) == 0)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, try fixture.property("Subscribers", channel: "news") as? NSNumber != 0 { usleep(20_000) }
        #expect(try fixture.property("Subscribers", channel: "news") as? NSNumber == 0)
    }
}
