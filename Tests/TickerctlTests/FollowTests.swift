import Foundation
import Testing
import TestSupport
@testable import tickerctl

/// `tickerctl follow` against the real daemon: its frames are the daemon's, it survives restarts,
/// and it ends cleanly when told to or when its reader goes away.
@Suite(.serialized) struct FollowTests {
    static let long = "Breaking: tickerd now follows every panel — waybar, polybar, i3blocks and GNOME Shell"

    @Test func followFramesEqualRenderAtTheSameInstants() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", Self.long])
        _ = try fixture.ok(["configure", "main", "speed=20"])
        let follow = try fixture.follow(["--format", "json", "--columns", "14"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).count >= 12 })
        follow.kill(SIGTERM)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
        let lines = CLIFixture.jsonLines(follow.standardOutput)
        #expect(lines.count >= 12)
        var previous: String?
        for line in lines {
            let text = try #require(line["text"] as? String)
            let at = try #require((line["at"] as? NSNumber)?.int64Value)
            #expect(line["state"] as? String == "scrolling")
            #expect(line["full_text"] as? String == Self.long)
            #expect(text == (try fixture.render(columns: 14, at: at)), "frame at \(at)")
            #expect(text != previous, "a line is printed only when the text changes")
            previous = text
        }
    }

    @Test func followShowsCountersAndDotsAsRenderDoes() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["set", "builds", "1000", "--grouping"])
        _ = try fixture.ok(["post", "Builds: {builds} — compiling...", "--effect", "dots"])
        let follow = try fixture.follow(["--format", "json", "--columns", "36", "--fps", "60"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).count >= 2 })
        // follow computes frames from the Timeline it last received: until the count's update
        // arrives (a few ms; more under a sanitizer) its frames show the old timeline.
        let setAt = CLIFixture.nowMicroseconds()
        _ = try fixture.ok(["set", "builds", "1500", "--duration", "1s"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { output in
            CLIFixture.jsonLines(output).contains { ($0["text"] as? String)?.contains("1,500") == true }
        })
        follow.kill(SIGTERM)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
        let lines = CLIFixture.jsonLines(follow.standardOutput)
        // Counting numbers and raised dots come through, each line as the daemon renders it.
        #expect(lines.contains { ($0["text"] as? String)?.contains("˙") == true })
        #expect(lines.contains { line in
            let text = line["text"] as? String ?? ""
            return !text.contains("1,000") && !text.contains("1,500") && text.hasPrefix("Builds: 1,")
        })
        // Every line before the count began, and every line from the first one after it that shows
        // the new timeline on, is the daemon's Render at its instant; the lines in between (the
        // update on its way) span well under a second.
        var caughtUp = false
        for line in lines {
            let text = try #require(line["text"] as? String)
            let at = try #require((line["at"] as? NSNumber)?.int64Value)
            let rendered = try fixture.render(columns: 36, at: at)
            if at < setAt || caughtUp {
                #expect(text == rendered, "frame at \(at)")
            } else if text == rendered {
                // Only a line that shows the count under way proves the new timeline arrived: just
                // after `setAt` the daemon may not have started the count yet, and then both the
                // old and the new timeline render 1,000 (a ThreadSanitizer run took that for
                // caught up, and the next line, still old, failed).
                caughtUp = !text.contains("1,000")
            } else {
                #expect(at - setAt < 1_000_000, "follow still showed the old timeline \(at - setAt) µs after the set")
            }
        }
        #expect(caughtUp, "no line after the set matched Render")
    }

    /// A daemon restart (an upgrade, a crash the unit restarts) takes its name away for a moment:
    /// the text goes on from the Timeline follow has, so the panel neither blanks nor re-lays out,
    /// and what the restarted daemon then sends is shown. (A long grace here: a restart under the
    /// sanitizers may take longer than the default 2 s.)
    @Test func aDaemonRestartDoesNotBlankTheLine() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", Self.long])
        let follow = try fixture.follow(["--format", "json", "--columns", "20", "--grace", "60s"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).count > 3 })
        #expect(try fixture.waitForProperty("Subscribers") { $0 as? Int == 1 }, "follow declared its width")
        try fixture.daemon.restart()
        // Follow read the restarted daemon again: it declared its width to it.
        #expect(try fixture.waitForProperty("Subscribers") { $0 as? Int == 1 }, "follow noticed the daemon's return")
        let restarted = CLIFixture.nowMicroseconds()
        #expect(follow.waitForOutput(timeout: .seconds(15)) { output in
            CLIFixture.jsonLines(output).contains { (($0["at"] as? NSNumber)?.int64Value ?? 0) > restarted }
        })
        follow.kill(SIGTERM)
        _ = try follow.wait(timeout: .seconds(10))
        let lines = CLIFixture.jsonLines(follow.standardOutput)
        let blank = lines.filter { $0["state"] as? String != "scrolling" || ($0["text"] as? String ?? "").isEmpty }
        #expect(blank.isEmpty, "a line went blank across the restart: \(blank)")
        // Every line, before, across and after the restart, is the frame Render gives at its
        // instant (the restarted daemon has the same Timeline).
        for line in lines {
            let text = try #require(line["text"] as? String)
            let at = try #require((line["at"] as? NSNumber)?.int64Value)
            #expect(text == (try fixture.render(columns: 20, at: at)), "frame at \(at)")
        }
    }

    @Test func followSurvivesADaemonRestartAndKeepsPrinting() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", Self.long])
        let follow = try fixture.follow(["--format", "waybar", "--columns", "20"])
        // The predicates read the text they are given (the output is locked while they run).
        func classes(_ text: String) -> [String] { CLIFixture.jsonLines(text).compactMap { $0["class"] as? String } }
        #expect(follow.waitForOutput(timeout: .seconds(15)) { classes($0).contains("scrolling") })

        try fixture.daemon.stop()
        #expect(follow.waitForOutput(timeout: .seconds(15)) { classes($0).last == "offline" })
        let offline = try #require(CLIFixture.jsonLines(follow.standardOutput).last)
        // An empty text, so waybar hides the module.
        #expect(offline["text"] as? String == "")
        let linesWhileOffline = classes(follow.standardOutput).count

        try fixture.daemon.start()
        #expect(follow.waitForOutput(timeout: .seconds(15)) {
            classes($0).count > linesWhileOffline + 3 && classes($0).last == "scrolling"
        })
        #expect(!follow.hasExited)
        follow.kill(SIGINT)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
    }

    @Test func waybarLinesStayValidAndExactlyWideForHostileText() throws {
        let fixture = try CLIFixture()
        let hostile = "<b>bold</b> & \"quotes\" 'single' %{F#f00}red%{F-} 日本語 🎉 end"
        _ = try fixture.ok(["post", hostile])
        _ = try fixture.ok(["configure", "main", "speed=25"])
        let follow = try fixture.follow(["--format", "waybar", "--columns", "16"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).count >= 15 })
        follow.kill(SIGTERM)
        _ = try follow.wait(timeout: .seconds(10))
        let rawLines = follow.standardOutput.split(separator: "\n")
        let objects = CLIFixture.jsonLines(follow.standardOutput)
        #expect(objects.count == rawLines.count, "every line is one JSON object")
        for object in objects {
            let text = try #require(object["text"] as? String)
            let plain = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            #expect(!text.contains("<") && !text.contains(">"))
            #expect(WidthTests.referenceWidth(plain) == 16, "\(plain.debugDescription)")
            #expect(object["tooltip"] as? String == FormatTests.referencePangoEscape(hostile))
        }
    }

    @Test func aChannelThatDoesNotExistYetShowsEmptyThenItsText() throws {
        let fixture = try CLIFixture()
        let follow = try fixture.follow(["--format", "json", "--channel", "later", "--columns", "10"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).last?["state"] as? String == "empty" })
        _ = try fixture.ok(["post", "--channel", "later", "hello"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) {
            CLIFixture.jsonLines($0).last?["text"] as? String == "hello     "
        })
        #expect(CLIFixture.jsonLines(follow.standardOutput).last?["state"] as? String == "static")
        follow.kill(SIGTERM)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
    }

    @Test(arguments: ["scrolling", "idle"])
    func followEndsCleanlyWhenThePanelClosesThePipe(kind: String) throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", kind == "scrolling" ? Self.long : "fits"])
        // `head` leaves after its lines; follow must notice (EPIPE, or the pipe's error while idle).
        let output = try ChildProcess.run("bash", [
            "-c", "\"$0\" --bus \"$1\" follow --format polybar --columns 30 | head -n 1 >/dev/null; echo \"status=${PIPESTATUS[0]}\"",
            CLIFixture.tickerctl, fixture.address,
        ], timeout: .seconds(30))
        #expect(output.stdout == "status=0\n", "\(output.stderr)")
    }

    @Test func aChannelEmptiedByRemoveIsEmptyWithAnEmptyText() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "--id", "only", Self.long])
        _ = try fixture.ok(["configure", "main", "speed=60"])
        let follow = try fixture.follow(["--format", "waybar", "--columns", "20"])
        func classes(_ text: String) -> [String] { CLIFixture.jsonLines(text).compactMap { $0["class"] as? String } }
        #expect(follow.waitForOutput(timeout: .seconds(15)) { classes($0).last == "scrolling" })
        _ = try fixture.ok(["remove", "only"])
        // The text scrolls out, then the module is hidden: class empty, text "" (never "static").
        #expect(follow.waitForOutput(timeout: .seconds(20)) { classes($0).last == "empty" })
        let lines = CLIFixture.jsonLines(follow.standardOutput)
        let last = try #require(lines.last)
        #expect(last["text"] as? String == "")
        #expect(last["tooltip"] as? String == "")
        #expect(!classes(follow.standardOutput).contains("static"))
        follow.kill(SIGTERM)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
    }

    @Test func theTooltipListsWhatTheTextShowsNotTheNewContent() throws {
        let fixture = try CLIFixture()
        let kept = "kept: this message stays on the channel"
        let removed = "QQQQ: this one is removed while it scrolls"
        _ = try fixture.ok(["configure", "main", "speed=30"])
        _ = try fixture.ok(["post", "--id", "kept", kept])
        // Urgent: both messages are on the tape at once (no change waits for its seam).
        _ = try fixture.ok(["post", "--id", "gone", "--urgent", removed])
        let follow = try fixture.follow(["--format", "waybar", "--columns", "24"])
        #expect(follow.waitForOutput(timeout: .seconds(15)) { output in
            CLIFixture.jsonLines(output).contains { ($0["text"] as? String)?.contains("QQQQ") == true }
        })
        _ = try fixture.ok(["remove", "gone"])
        // Until the removal reaches the view the text still scrolls the removed message; the tooltip
        // follows the text, then lists the kept message alone.
        #expect(follow.waitForOutput(timeout: .seconds(20)) { output in
            CLIFixture.jsonLines(output).last?["tooltip"] as? String == kept
        })
        follow.kill(SIGTERM)
        _ = try follow.wait(timeout: .seconds(10))
        let lines = CLIFixture.jsonLines(follow.standardOutput)
        for line in lines {
            let text = try #require(line["text"] as? String)
            let tooltip = try #require(line["tooltip"] as? String)
            if text.contains("Q") {
                #expect(tooltip.contains("QQQQ"), "the text shows the removed message, the tooltip not: \(line)")
            }
        }
        #expect(lines.contains { ($0["text"] as? String)?.contains("Q") == true && $0["tooltip"] as? String != kept })
    }

    @Test func followDeclaresItsWidthToTheDaemonAndAgainAfterARestart() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", Self.long])
        // dbus-monitor, an independent peer, sees the calls on the bus.
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='method_call',interface='io.github.tickerd.Ticker1.Channel',member='Subscribe'",
        ])
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { !$0.isEmpty })
        func declarations(_ output: String) -> Int {
            output.components(separatedBy: "member=Subscribe").dropFirst().filter { call in
                call.contains("string \"columns\"") && call.contains("uint32 17")
                    && call.contains("string \"fps\"") && call.contains("double 0")
            }.count
        }
        let follow = try fixture.follow(["--format", "json", "--columns", "17"])
        #expect(monitor.waitForOutput(timeout: .seconds(15)) { declarations($0) == 1 })
        // A daemon that does not know fps 0 answers InvalidOption; follow carries on all the same.
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).count >= 3 })
        try fixture.daemon.restart()
        #expect(monitor.waitForOutput(timeout: .seconds(20)) { declarations($0) == 2 })
        #expect(follow.waitForOutput(timeout: .seconds(15)) { CLIFixture.jsonLines($0).last?["state"] as? String == "scrolling" })
        follow.kill(SIGTERM)
        #expect(try follow.wait(timeout: .seconds(10)) == 0)
        monitor.kill(SIGTERM)
        _ = try monitor.wait(timeout: .seconds(10))
    }
}
