import Foundation
import Testing
import TestSupport

/// Links and activation: Post/Update `link`, List, `MessageAt`, `Activate` and
/// `tickerctl activate` opening the link with the real xdg-open.
@Suite(.serialized) struct ActivateTests {
    static let control = ["io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1", "io.github.tickerd.Ticker1.Control"]
    static let links = ["io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1/channel/links", "io.github.tickerd.Ticker1.Channel"]

    func listedLinks(_ fixture: CLIFixture) throws -> [String: String] {
        let reply = try fixture.busctl(["call"] + Self.control + ["List", "s", "links"])
        let entries = (reply["data"] as? [Any])?.first as? [[Any]] ?? []
        var result: [String: String] = [:]
        for entry in entries {
            guard let id = entry[0] as? String, let fields = entry[1] as? [String: [String: Any]] else { continue }
            result[id] = fields["link"]?["data"] as? String ?? ""
        }
        return result
    }

    /// A busctl call without a reply value; fails the test unless it succeeds.
    func call(_ fixture: CLIFixture, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try ChildProcess.run("busctl", ["--address=\(fixture.address)", "--"] + arguments)
        #expect(output.status == 0, "busctl \(arguments): \(output.stderr)", sourceLocation: sourceLocation)
    }

    func messageAt(_ fixture: CLIFixture, column: Int) throws -> [String] {
        let reply = try fixture.busctl(["call"] + Self.links + ["MessageAt", "uux", "40", "\(column)", "0"])
        return reply["data"] as? [String] ?? []
    }

    @Test func linksAreKeptListedAndFoundUnderAColumn() throws {
        let fixture = try CLIFixture()
        try call(fixture, ["call"] + Self.control + ["Configure", "sa{sv}", "links", "2", "mode", "s", "static", "align", "s", "left"])
        // Not an absolute URI: refused, naming the option.
        let refused = try ChildProcess.run("busctl", ["--address=\(fixture.address)", "call"] + Self.control + [
            "Post", "ssa{sv}", "links", "Alpha", "1", "link", "s", "example.org/a",
        ])
        #expect(refused.status != 0 && refused.stderr.contains("link"), "\(refused.stderr)")
        try call(fixture, ["call"] + Self.control + [
            "Post", "ssa{sv}", "links", "Alpha", "3", "id", "s", "alpha", "priority", "i", "2", "link", "s", "https://example.org/a?b=1",
        ])
        try call(fixture, ["call"] + Self.control + ["Post", "ssa{sv}", "links", "Beta", "2", "id", "s", "beta", "priority", "i", "1"])
        #expect(try listedLinks(fixture) == ["alpha": "https://example.org/a?b=1", "beta": ""])

        let frame = try fixture.render(columns: 40, at: 0, channel: "links")
        let beta = try #require(frame.range(of: "Beta")).lowerBound.utf16Offset(in: frame)
        #expect(try messageAt(fixture, column: 0) == ["alpha", "https://example.org/a?b=1"])
        #expect(try messageAt(fixture, column: 4) == ["alpha", "https://example.org/a?b=1"])
        #expect(try messageAt(fixture, column: beta) == ["beta", ""])
        #expect(try messageAt(fixture, column: beta - 2) == ["", ""])
        #expect(try messageAt(fixture, column: 39) == ["", ""])

        // The link survives a restart (it is stored), and Update "" removes it.
        try fixture.daemon.restart()
        #expect(try listedLinks(fixture)["alpha"] == "https://example.org/a?b=1")
        try call(fixture, ["call"] + Self.control + ["Update", "sa{sv}", "alpha", "1", "link", "s", ""])
        #expect(try listedLinks(fixture)["alpha"] == "")
    }

    /// `tickerctl update ID --link URI` and `--link ''` (docs/tickerctl.md) change the link alone:
    /// both were refused with "Nothing to change: give --text or another option".
    @Test func tickerctlUpdateSetsAndRemovesALinkAlone() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "--channel", "links", "--id", "notes", "Release notes"])
        _ = try fixture.ok(["update", "notes", "--link", "https://example.org/notes"])
        #expect(try listedLinks(fixture) == ["notes": "https://example.org/notes"])
        _ = try fixture.ok(["update", "notes", "--link", ""])
        #expect(try listedLinks(fixture) == ["notes": ""])
    }

    @Test func tickerctlActivateOpensTheLinkAndAnnouncesTheClick() throws {
        let fixture = try CLIFixture()
        let scratch = try TemporaryDirectory(prefix: "activate")
        let opened = scratch.file("opened")
        let browser = scratch.file("browser")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        try call(fixture, ["call"] + Self.control + ["Configure", "sa{sv}", "links", "2", "mode", "s", "static", "align", "s", "left"])
        _ = try fixture.ok(["post", "--channel", "links", "--id", "notes", "--link", "https://example.org/notes", "Release notes"])
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='Activated'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })

        // xdg-open outside a desktop hands http(s) links to $BROWSER.
        let environment = ["BROWSER": browser, "XDG_CURRENT_DESKTOP": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        let output = try ChildProcess.run(
            CLIFixture.tickerctl, ["--bus", fixture.address, "activate", "--channel", "links", "--columns", "40", "--column", "3"],
            environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.org/notes\n")
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("string \"links\"\n   string \"notes\"") })

        // Nothing under the column: a usage error, nothing opened.
        let empty = try ChildProcess.run(
            CLIFixture.tickerctl, ["--bus", fixture.address, "activate", "--channel", "links", "--columns", "40", "--column", "30"],
            environment: environment)
        #expect(empty.status == 64 && empty.stderr.contains("no message under column 30"), "\(empty.stderr)")
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.org/notes\n")

        // No program opens links here (a kiosk, a minimal session): the click still reaches the
        // message's source, and the failure to open is reported.
        let failing = scratch.file("no-browser")
        try "#!/bin/sh\nexit 3\n".write(toFile: failing, atomically: true, encoding: .utf8)
        chmod(failing, 0o755)
        let unopened = try ChildProcess.run(
            CLIFixture.tickerctl, ["--bus", fixture.address, "activate", "--channel", "links", "--columns", "40", "--column", "3"],
            environment: environment.merging(["BROWSER": failing]) { $1 })
        #expect(unopened.status != 0 && unopened.stderr.contains("https://example.org/notes"), "\(unopened.stderr)")
        #expect(monitor.waitForOutput(timeout: .seconds(5)) {
            $0.components(separatedBy: "string \"links\"\n   string \"notes\"").count == 3
        }, "the second click was not announced")
    }

    @Test func activateAtAsksAboutTheFrameOfThatInstant() throws {
        let fixture = try CLIFixture()
        // A tape wider than 8 columns scrolling one cell a second: whole seconds (`--at @SECONDS`)
        // move it a column each.
        try call(fixture, ["call"] + Self.control + ["Configure", "sa{sv}", "links", "2", "mode", "s", "scroll", "speed", "d", "1"])
        _ = try fixture.ok(["post", "--channel", "links", "--id", "alpha", "--link", "https://example.org/alpha", "Alpha"])
        _ = try fixture.ok(["post", "--channel", "links", "--id", "beta", "--link", "https://example.org/beta", "Beta"])
        func frame(_ seconds: Int64) throws -> String { try fixture.render(columns: 8, at: seconds * 1_000_000, channel: "links") }
        func columns(of name: String, in frame: String) -> Range<Int>? {
            frame.range(of: name).map { $0.lowerBound.utf16Offset(in: frame)..<$0.upperBound.utf16Offset(in: frame) }
        }
        func activate(_ at: [String], column: Int) throws -> ChildProcess.Output {
            try fixture.run(["activate", "--print", "--channel", "links", "--columns", "8", "--column", "\(column)"] + at)
        }
        // An instant when Beta is in view, and a later one when Alpha covers that same column.
        let start = Int64(Date().timeIntervalSince1970) + 3600
        let betaAt = try #require((start..<(start + 120)).first { (try? frame($0)).flatMap { columns(of: "Beta", in: $0) } != nil })
        let column = try #require(columns(of: "Beta", in: try frame(betaAt))).lowerBound + 1
        let alphaAt = try #require(((betaAt + 1)..<(betaAt + 120)).first {
            (try? frame($0)).flatMap { columns(of: "Alpha", in: $0) }?.contains(column) == true
        })
        let atBeta = try activate(["--at", "@\(betaAt)"], column: column)
        #expect(atBeta.status == 0 && atBeta.stdout == "beta https://example.org/beta\n", "\(atBeta.stderr)")
        let atAlpha = try activate(["--at", "@\(alphaAt)"], column: column)
        #expect(atAlpha.status == 0 && atAlpha.stdout == "alpha https://example.org/alpha\n", "\(atAlpha.stderr)")
        // A malformed instant is a usage error naming the option; nothing is activated.
        let malformed = try activate(["--at", "the day after"], column: column)
        #expect(malformed.status == 64 && malformed.stderr.contains("--at"), "\(malformed.stderr)")
    }
}
