import Foundation
import Testing
import TestSupport

/// The command source end to end: real commands, the real service, a real tickerd.
@Suite(.serialized) struct CommandSourceTests {
    @Test func outputReplacesTheMessageAndAFailureShowsNothingLoggedOnce() throws {
        let files = try TemporaryDirectory(prefix: "command-source")
        let value = files.file("value")
        let runs = files.file("runs")
        try "one\n".write(toFile: value, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "reader"
            type = "command"
            channel = "status"
            command = "echo run >> '\(runs)'; cat '\(value)'"
            interval = "200ms"
            template = "value: {output}"
            """)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "reader").map(\.text) == ["value: one"] })
        #expect(try fixture.messages(of: "reader").first?.channel == "status")

        try "two\nlines\n".write(toFile: value, atomically: true, encoding: .utf8)
        #expect(try fixture.wait { try fixture.messages(of: "reader").map(\.text) == ["value: two lines"] })
        #expect(try fixture.messages(of: "reader").map(\.id) == ["src/reader/output"])

        try FileManager.default.removeItem(atPath: value)
        #expect(try fixture.wait { try fixture.messages(of: "reader").isEmpty })
        // Several more failing runs, one report.
        let count = { (try? String(contentsOfFile: runs, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        let before = count()
        #expect(fixture.wait { count() >= before + 4 })
        let reports = fixture.log.components(separatedBy: "the command failed with exit status 1").count - 1
        #expect(reports == 1, "\(fixture.log)")
        #expect(fixture.log.contains("No such file or directory"))

        try "back\n".write(toFile: value, atomically: true, encoding: .utf8)
        #expect(try fixture.wait { try fixture.messages(of: "reader").map(\.text) == ["value: back"] })
    }

    @Test func persistentCommandShowsEachLine() throws {
        let files = try TemporaryDirectory(prefix: "command-source")
        let feed = files.file("feed")
        try "".write(toFile: feed, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "tail"
            type = "command"
            persist = true
            command = "exec tail -n +1 -F '\(feed)'"
            template = "> {output}"
            """)
        try fixture.startService()
        let handle = try #require(FileHandle(forWritingAtPath: feed))
        for line in ["first", "second", "third"] {
            handle.seekToEndOfFile()
            handle.write(Data("\(line)\n".utf8))
            #expect(try fixture.wait { try fixture.messages(of: "tail").map(\.text) == ["> \(line)"] })
        }
        try handle.close()
    }

    @Test func aRefusedMessageIsLoggedOnceAndTheOtherSourcesCarryOn() throws {
        let files = try TemporaryDirectory(prefix: "command-source")
        let runs = files.file("runs")
        // The service cuts a text to tickerd's default 4096 characters; a tickerd configured
        // for less still refuses it.
        let fixture = try SourcesFixture(sources: """
            lease = "1s"

            [[source]]
            name = "huge"
            type = "command"
            command = "echo run >> '\(runs)'; head -c 20000 /dev/zero | tr '\\\\0' x"
            interval = "200ms"
            template = "{output}"

            [[source]]
            name = "fine"
            type = "command"
            command = "echo fine"
            interval = "1s"
            template = "{output}"
            """, daemonConfig: "[limits]\nmessage-length = 100\n")
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "fine").map(\.text) == ["fine"] })
        #expect(fixture.wait { fixture.log.contains("source=huge") && fixture.log.contains("tickerd refused the message") })
        #expect(try fixture.messages(of: "huge").isEmpty)
        #expect(fixture.service?.hasExited == false)
        // The same refused text is not posted (nor logged) again at each run or renewal (every
        // third of a second here).
        let count = { (try? String(contentsOfFile: runs, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        #expect(fixture.wait { count() >= 6 })
        #expect(fixture.log.components(separatedBy: "tickerd refused the message").count - 1 == 1, "\(fixture.log)")
    }
}
