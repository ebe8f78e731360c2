import Foundation
import TestSupport

/// Tests/Fixtures/feeds/serve.py on 127.0.0.1: serves a folder with ETag and Last-Modified,
/// answers conditional GETs with 304, and logs each request; marker files beside a file make it
/// misbehave (redirect, trickle, cut off, endless: see serve.py).
final class FeedServer: @unchecked Sendable {
    static let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds"
    let process: ChildProcess
    let port: Int

    /// Whether it speaks https.
    let tls: Bool

    /// Starts serving `folder` (over https with the certificate in file `certificate` and its key
    /// in `key` when both are given) and waits (up to 30 s) until it listens.
    init(serving folder: String, certificate: String? = nil, key: String? = nil) throws {
        let tlsArguments = certificate.flatMap { certificate in key.map { ["--tls", certificate, $0] } } ?? []
        tls = !tlsArguments.isEmpty
        process = try ChildProcess(try PythonVenv.python(), [Self.fixtures + "/serve.py"] + tlsArguments + [folder])
        guard process.waitForOutput(timeout: .seconds(30), until: { $0.contains("\n") }),
              let line = process.standardOutput.split(separator: "\n").first, line.hasPrefix("PORT "),
              let port = Int(line.dropFirst(5)) else {
            process.kill(SIGKILL)
            throw TestSupportError("serve.py did not start: \(process.standardError)")
        }
        self.port = port
    }

    /// The URL of `name` on this server.
    func url(_ name: String) -> URL { URL(string: "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(name)")! }

    /// The request log lines so far.
    var requests: [String] { process.standardOutput.split(separator: "\n").dropFirst().map(String.init) }

    /// Waits until `count` requests were logged (the log line follows the answer).
    func waitForRequests(_ count: Int) -> [String] {
        _ = process.waitForOutput(timeout: .seconds(30)) { $0.split(separator: "\n").count > count }
        return requests
    }

    /// Waits (up to 30 s) until a log line satisfies `predicate`; returns whether one did.
    func waitForLine(_ predicate: @escaping (Substring) -> Bool) -> Bool {
        process.waitForOutput(timeout: .seconds(30)) { $0.split(separator: "\n").dropFirst().contains(where: predicate) }
    }

    /// ``waitForLine(_:)`` for an async test, on a thread of its own: the test's task gives its
    /// thread of the cooperative pool back while it waits, so the tasks it waits for (a fetch it
    /// started) can run even when the rest of the suite holds the pool's other threads.
    func lineLogged(_ predicate: @escaping @Sendable (Substring) -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { [self] in continuation.resume(returning: waitForLine(predicate)) }.start()
        }
    }

    func stop() {
        process.kill(SIGTERM)
        _ = try? process.wait(timeout: .seconds(30))
    }
}
