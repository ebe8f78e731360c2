import Foundation
import Testing
import TestSupport

/// The order of a Post's system calls in the real daemon, as `strace` sees them: its journal
/// record is written and flushed (`fdatasync`) before its MessageStarted is sent, and before its
/// answer — whether it adds a message to a channel or creates the channel. No client ever sees a
/// change that a crash could undo.
///
/// Under `make sanitize` the suite steps aside: LeakSanitizer refuses to run under strace's ptrace.
@Suite(.disabled(if: Sanitizer.isActive, "LeakSanitizer does not run under ptrace"))
struct DaemonWriteOrderTests {
    /// One traced system call: its name and the line strace printed.
    struct Call {
        var name: String
        var line: Substring
    }

    @Test func aPostIsDurableBeforeItIsAnnouncedAndBeforeItIsAnswered() throws {
        let daemon = try TracedDaemon(
            straceOptions: ["-s", "16384", "-e", "trace=sendto,sendmsg,pwrite64,write,writev,fdatasync,fsync"])
        let ids = (1...4).map { "order-\($0)" } + ["order-new-channel"]
        for id in ids {
            let posted = try ChildProcess.run("busctl", ["--address=\(daemon.bus.address)", "--", "call", "io.github.tickerd.Ticker1",
                "/io/github/tickerd/Ticker1", "io.github.tickerd.Ticker1.Control", "Post", "ssa{sv}",
                id == "order-new-channel" ? "fresh" : "main", "Message \(id)", "1", "id", "s", id])
            #expect(posted.status == 0, "\(posted.stderr)")
        }
        guard try daemon.stop() else { return }

        let calls = try String(contentsOfFile: daemon.trace, encoding: .utf8).split(separator: "\n").compactMap { line -> Call? in
            let name = line.drop { $0.isNumber || $0 == " " }.prefix { $0.isLetter || $0.isNumber }
            return name.isEmpty ? nil : Call(name: String(name), line: line)
        }
        for id in ids {
            let quoted = "\(id)"
            // The record's write: a write to the journal holding the message.
            let record = calls.firstIndex { $0.name == "pwrite64" && $0.line.contains(quoted) }
            // MessageStarted, and the answer: a method return whose body is the id.
            let started = calls.firstIndex { ($0.name == "sendto" || $0.name == "sendmsg") && $0.line.contains("MessageStarted") && $0.line.contains(quoted) }
            let answer = calls.firstIndex { ($0.name == "sendto" || $0.name == "sendmsg") && !$0.line.contains("Properties")
                && !$0.line.contains("MessageStarted") && !$0.line.contains("MESSAGE=") && $0.line.contains(quoted) }
            guard let record, let started, let answer else {
                Issue.record("\(id): record \(String(describing: record)), MessageStarted \(String(describing: started)), answer \(String(describing: answer)) in \(calls.count) calls")
                continue
            }
            let flushed = calls[record...].firstIndex { $0.name == "fdatasync" || $0.name == "fsync" }
            guard let flushed else {
                Issue.record("\(id): its record was never flushed")
                continue
            }
            #expect(flushed < started, "\(id) was announced before its record was durable")
            #expect(flushed < answer, "\(id) was answered before its record was durable")
        }
    }
}
