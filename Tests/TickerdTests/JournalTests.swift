import Foundation
import Testing
import TestSupport

/// Logging goes to the journal, with structured fields, when the journal's socket is there.
/// The test gives the daemon a journal socket of its own: in a private mount namespace
/// (`unshare -m`, as root) a tmpfs covers /run and a datagram socket there
/// collects what `sd_journal_sendv` writes — the host's journal is never touched.
@Suite struct JournalTests {
    static let collector = #"""
        import os, socket, subprocess, sys, time
        subprocess.run(["mount", "--make-rprivate", "/"], check=True)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run"], check=True)
        os.makedirs("/run/systemd/journal")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind("/run/systemd/journal/socket")
        env = dict(os.environ)
        env.pop("TICKERD_LOG", None)
        daemon = subprocess.Popen(sys.argv[1:], env=env, stderr=subprocess.PIPE)
        sock.settimeout(20)
        entries = []
        try:
            while not any(b"serving io.github.tickerd.Ticker1" in e for e in entries):
                entries.append(sock.recv(65536))
            # A post, so the channel's story gets a line with TICKER_CHANNEL.
            address = sys.argv[sys.argv.index("--bus") + 1]
            subprocess.run(["busctl", "--address=" + address, "call", "io.github.tickerd.Ticker1",
                            "/io/github/tickerd/Ticker1", "io.github.tickerd.Ticker1.Control", "Post",
                            "ssa{sv}", "main", "hello journal", "1", "id", "s", "hello"], check=True)
            while not any(b"TICKER_CHANNEL=main" in e for e in entries):
                entries.append(sock.recv(65536))
        finally:
            daemon.terminate()
            daemon.wait(20)
        sock.settimeout(5)
        try:
            while not any(b"MESSAGE=stopped" in e for e in entries):
                entries.append(sock.recv(65536))
        except socket.timeout:
            pass
        for entry in entries:
            sys.stdout.write(entry.decode("utf-8", "replace").replace("\n", "|") + "\n")
        sys.stdout.write("stderr:" + daemon.stderr.read().decode() + "\n")
        """#

    @Test func entriesCarryPriorityIdentifierCodeAndOurFields() throws {
        let work = try TemporaryDirectory()
        let script = work.file("collector.py")
        try Self.collector.write(toFile: script, atomically: true, encoding: .utf8)
        let bus = try PrivateBus()
        let output = try ChildProcess.run("unshare", [
            "-m", "python3", script, TickerdProcess.binary("tickerd"), "--bus", bus.address, "--config", "/dev/null",
            "--state-dir", work.file("state"),
        ], timeout: .seconds(60))
        #expect(output.status == 0, "\(output.stderr)")
        let entries = output.stdout.split(separator: "\n").filter { $0.contains("MESSAGE=") }
        let serving = try #require(entries.first { $0.contains("MESSAGE=serving io.github.tickerd.Ticker1") })
        let fields = Set(serving.split(separator: "|").map(String.init))
        #expect(fields.contains("PRIORITY=6"))
        #expect(fields.contains("SYSLOG_IDENTIFIER=tickerd"))
        #expect(fields.contains { $0.hasPrefix("CODE_FILE=") && $0.hasSuffix("Daemon.swift") })
        #expect(fields.contains { $0.hasPrefix("CODE_LINE=") })
        #expect(fields.contains("TICKER_CONFIG=/dev/null"))
        #expect(entries.contains { $0.contains("MESSAGE=stopped") })
        // A message's story: `journalctl TICKER_CHANNEL=main TICKER_MESSAGE=hello` finds it.
        let shown = try #require(entries.first { $0.contains("TICKER_CHANNEL=main") })
        let shownFields = Set(shown.split(separator: "|").map(String.init))
        #expect(shownFields.contains("TICKER_MESSAGE=hello"))
        #expect(shownFields.contains("MESSAGE=message 'hello' shown on 'main'"))
        #expect(shownFields.contains("PRIORITY=6"))
        // Nothing went to stderr: the journal took it all.
        #expect(output.stdout.contains("stderr:\n"))
    }
}
