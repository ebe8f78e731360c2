import Foundation
import Glibc
import TestSupport

/// A real mosquitto broker on a free loopback port, with its own generated configuration (and,
/// when asked, TLS certificates made with openssl, a password file made with mosquitto_passwd,
/// and an ACL file), restartable on the same port and persistence file.
final class MosquittoBroker: @unchecked Sendable {
    /// The users the secured broker knows: an admin who may publish to the fleet, and a screen.
    static let users = ["admin": "admin-secret", "screen": "screen-secret"]

    /// The broker's binary: Debian installs it in /usr/sbin, which a user's PATH may lack.
    static let executable = FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
        ? "/usr/sbin/mosquitto" : "mosquitto"

    let directory: TemporaryDirectory
    let port: Int32
    let secured: Bool
    private(set) var process: ChildProcess?

    var caFile: String { directory.file("ca.crt") }
    var persistenceFile: String { directory.file("mosquitto.db") }

    /// A broker (not started). `secured`: TLS only, passwords and ACLs (docs/fleet.md's setup).
    init(secured: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "tickerd-mosquitto")
        port = try Self.freePort()
        self.secured = secured
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        var config = """
            per_listener_settings false
            user \(user)
            persistence true
            persistence_location \(directory.path)/
            autosave_interval 0
            max_queued_messages 10000
            log_dest stderr
            log_type error
            log_type warning
            log_type notice
            log_type information

            """
        if secured {
            try makeCertificates()
            for (name, password) in Self.users.sorted(by: { $0.key < $1.key }) {
                let create = FileManager.default.fileExists(atPath: directory.file("passwd")) ? [] : ["-c"]
                let output = try ChildProcess.run("mosquitto_passwd", create + ["-b", directory.file("passwd"), name, password])
                guard output.status == 0 else { throw TestSupportError("mosquitto_passwd: \(output.stderr)") }
            }
            try """
                user admin
                topic readwrite tickerd/#

                user screen
                topic read tickerd/lobby/#

                pattern readwrite tickerd/sync/%c

                """.write(toFile: directory.file("acl"), atomically: true, encoding: .utf8)
            config += """
                allow_anonymous false
                password_file \(directory.file("passwd"))
                acl_file \(directory.file("acl"))
                listener \(port) 127.0.0.1
                cafile \(caFile)
                certfile \(directory.file("server.crt"))
                keyfile \(directory.file("server.key"))

                """
        } else {
            config += """
                allow_anonymous true
                listener \(port) 127.0.0.1

                """
        }
        try config.write(toFile: directory.file("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        if let process, !process.hasExited {
            process.kill(SIGKILL)
            _ = try? process.wait(timeout: .seconds(5))
        }
    }

    /// Starts it and waits until it listens.
    func start() throws {
        let child = try ChildProcess(Self.executable, ["-c", directory.file("mosquitto.conf")])
        process = child
        guard child.waitForError(timeout: .seconds(10), until: { $0.contains(" running") }) else {
            throw TestSupportError("mosquitto did not start: \(child.standardError)")
        }
    }

    /// Stops it (SIGTERM: it saves its retained messages) and waits for it to exit.
    func stop() throws {
        guard let process else { return }
        process.kill(SIGTERM)
        _ = try process.wait(timeout: .seconds(10))
    }

    /// Forgets every retained message (the broker must be stopped).
    func forgetRetained() {
        unlink(persistenceFile)
    }

    /// The mosquitto_pub/mosquitto_sub arguments that reach this broker (as `user`, if secured).
    func clientArguments(user: String = "admin") -> [String] {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)"]
        if secured { arguments += ["--cafile", caFile, "-u", user, "-P", Self.users[user] ?? ""] }
        return arguments
    }

    /// Publishes `payload` (retained, QoS 1) on `topic` with mosquitto_pub as the admin.
    func publish(_ topic: String, _ payload: String, retained: Bool = true) throws {
        var arguments = clientArguments() + ["-q", "1", "-t", topic]
        arguments += payload.isEmpty ? ["-n"] : ["-m", payload]
        if retained { arguments.append("-r") }
        let output = try ChildProcess.run("mosquitto_pub", arguments)
        guard output.status == 0 else { throw TestSupportError("mosquitto_pub \(topic): \(output.stderr)") }
    }

    /// The `[[source]]` table of a screen following `topic` on this broker.
    func sourceTable(name: String = "fleet", topic: String = "tickerd/lobby", clientID: String, extra: String = "") -> String {
        var table = """
            [[source]]
            name = "\(name)"
            type = "mqtt"
            host = "127.0.0.1"
            port = \(port)
            topic = "\(topic)"
            client-id = "\(clientID)"
            template = "{text}"
            reconnect-max = "1s"

            """
        if secured {
            table += """
                username = "screen"
                password = "\(Self.users["screen"] ?? "")"
                ca-file = "\(caFile)"

                """
        }
        return table + extra
    }

    private func makeCertificates() throws {
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=tickerd test CA",
             "-keyout", directory.file("ca.key"), "-out", caFile],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
             "-keyout", directory.file("server.key"), "-out", directory.file("server.csr")],
            ["x509", "-req", "-in", directory.file("server.csr"), "-CA", caFile, "-CAkey", directory.file("ca.key"),
             "-CAcreateserial", "-days", "2", "-extfile", directory.file("san.ext"), "-out", directory.file("server.crt")],
        ]
        try "subjectAltName = IP:127.0.0.1, DNS:localhost\n".write(
            toFile: directory.file("san.ext"), atomically: true, encoding: .utf8)
        for step in steps {
            let output = try ChildProcess.run("openssl", step)
            guard output.status == 0 else { throw TestSupportError("openssl \(step[0]): \(output.stderr)") }
        }
    }

    /// A port on 127.0.0.1 that nothing listens on now (the kernel's choice).
    private static func freePort() throws -> Int32 {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw TestSupportError("socket: \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(socketFD, socketAddress, length) == 0 && getsockname(socketFD, socketAddress, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("bind: \(errno)") }
        return Int32(UInt16(bigEndian: address.sin_port))
    }
}
