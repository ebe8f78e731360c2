import Foundation
import Testing
import TestSupport

/// `make install` and `make install-user` into scratch folders, reusing the binaries built for
/// the tests (`BUILT=`): every file lands where Debian and systemd look for it.
@Suite struct InstallTests {
    /// Runs `make target variables…` in the repo; MAKEFLAGS from an outer `make test` are dropped.
    static func make(_ target: String, _ variables: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run("make", ["--no-print-directory", "-C", Repository.root, target,
                                      "BUILT=\(Repository.buildProducts)"] + variables,
                             environment: ["MAKEFLAGS": "", "MFLAGS": "", "MAKELEVEL": ""], timeout: .seconds(120))
    }

    /// Every regular file under `root`, relative to it.
    static func listing(_ root: String) -> Set<String> {
        var files: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files.insert(path)
            }
        }
        return files
    }

    static let sharedFiles: Set<String> = [
        "bin/tickerd", "bin/tickerctl", "bin/tickerd-sources",
        "lib/systemd/system/tickerd.service", "lib/systemd/user/tickerd.service", "lib/sysusers.d/tickerd.conf",
        "lib/systemd/system/tickerd-sources.service", "lib/systemd/user/tickerd-sources.service",
        "share/dbus-1/system-services/io.github.tickerd.Ticker1.service",
        "share/dbus-1/services/io.github.tickerd.Ticker1.service",
        "share/dbus-1/interfaces/io.github.tickerd.Ticker1.Manager.xml",
        "share/dbus-1/interfaces/io.github.tickerd.Ticker1.Control.xml",
        "share/dbus-1/interfaces/io.github.tickerd.Ticker1.Channel.xml",
        "share/man/man1/tickerctl.1", "share/man/man5/tickerd.toml.5", "share/man/man8/tickerd.8",
        "share/man/man8/tickerd-sources.8",
        "share/bash-completion/completions/tickerctl", "share/zsh/site-functions/_tickerctl",
        "share/fish/vendor_completions.d/tickerctl.fish",
        "share/bash-completion/completions/tickerd", "share/zsh/site-functions/_tickerd",
        "share/fish/vendor_completions.d/tickerd.fish",
        "share/bash-completion/completions/tickerd-sources", "share/zsh/site-functions/_tickerd-sources",
        "share/fish/vendor_completions.d/tickerd-sources.fish",
        "share/doc/tickerd/examples/tickerd.toml", "share/doc/tickerd/examples/sources.toml",
        "share/doc/tickerd/examples/tickerd-sources-network.conf", "share/doc/tickerd/sources.md",
        "share/doc/tickerd/fleet.md", "share/doc/tickerd/fleet-message.schema.json",
    ]

    @Test func installPutsEveryFileWhereItBelongs() throws {
        let destination = try TemporaryDirectory(prefix: "tickerd-destdir")
        let installed = try Self.make("install", ["DESTDIR=\(destination.path)", "PREFIX=/usr"])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let expected = Set(Self.sharedFiles.map { "usr/" + $0 }).union(["usr/share/dbus-1/system.d/io.github.tickerd.Ticker1.conf"])
        #expect(Self.listing(destination.path) == expected)
        for binary in ["usr/bin/tickerd", "usr/bin/tickerctl"] {
            #expect(FileManager.default.isExecutableFile(atPath: destination.file(binary)))
        }
        let unit = try String(contentsOfFile: destination.file("usr/lib/systemd/system/tickerd.service"), encoding: .utf8)
        #expect(unit == (try Repository.read("systemd/tickerd.service")))
        let completion = try String(contentsOfFile: destination.file("usr/share/bash-completion/completions/tickerctl"), encoding: .utf8)
        #expect(completion.contains("tickerctl"))
    }

    /// Another prefix: paths in units and activation files follow it, and the bus policy goes where
    /// dbus-daemon reads local policy (`/etc/dbus-1/system.d`).
    @Test func installUnderAnotherPrefixRewritesThePaths() throws {
        let destination = try TemporaryDirectory(prefix: "tickerd-destdir")
        let installed = try Self.make("install", ["DESTDIR=\(destination.path)", "PREFIX=/opt/tickerd"])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let expected = Set(Self.sharedFiles.map { "opt/tickerd/" + $0 }).union(["etc/dbus-1/system.d/io.github.tickerd.Ticker1.conf"])
        #expect(Self.listing(destination.path) == expected)
        for file in ["lib/systemd/system/tickerd.service", "lib/systemd/user/tickerd.service",
                     "share/dbus-1/services/io.github.tickerd.Ticker1.service"] {
            let text = try String(contentsOfFile: destination.file("opt/tickerd/" + file), encoding: .utf8)
            #expect(text.contains("/opt/tickerd/bin/tickerd --bus "), "\(file)")
            #expect(!text.contains("/usr/bin/tickerd"), "\(file)")
        }
    }

    /// `make install-user` for one desktop user: binaries in ~/.local/bin, the user unit and the
    /// session activation file under ~/.local/share, naming the installed binary; the unit verifies.
    @Test func installUserSetsUpOneDesktopUser() throws {
        let home = try TemporaryDirectory(prefix: "tickerd-home")
        let installed = try Self.make("install-user", ["HOME=\(home.path)", "XDG_DATA_HOME=\(home.path)/.local/share"])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        #expect(Self.listing(home.path) == [
            ".local/bin/tickerd", ".local/bin/tickerctl", ".local/bin/tickerd-sources",
            ".local/share/systemd/user/tickerd.service", ".local/share/systemd/user/tickerd-sources.service",
            ".local/share/dbus-1/services/io.github.tickerd.Ticker1.service",
            ".local/share/man/man1/tickerctl.1", ".local/share/man/man5/tickerd.toml.5", ".local/share/man/man8/tickerd.8",
            ".local/share/man/man8/tickerd-sources.8",
            ".local/share/bash-completion/completions/tickerctl", ".local/share/zsh/site-functions/_tickerctl",
            ".local/share/fish/vendor_completions.d/tickerctl.fish",
            ".local/share/bash-completion/completions/tickerd", ".local/share/zsh/site-functions/_tickerd",
            ".local/share/fish/vendor_completions.d/tickerd.fish",
            ".local/share/bash-completion/completions/tickerd-sources",
            ".local/share/zsh/site-functions/_tickerd-sources",
            ".local/share/fish/vendor_completions.d/tickerd-sources.fish",
        ])
        let binary = home.path + "/.local/bin/tickerd"
        let unit = try String(contentsOfFile: home.file(".local/share/systemd/user/tickerd.service"), encoding: .utf8)
        let activation = try String(contentsOfFile: home.file(".local/share/dbus-1/services/io.github.tickerd.Ticker1.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=\(binary) --bus session"))
        #expect(activation.contains("Exec=\(binary) --bus session"))

        let runtime = try TemporaryDirectory(prefix: "tickerd-runtime")
        let man = try SystemdAnalyze.manPath()
        let verified = try ChildProcess.run("systemd-analyze", ["verify", "--user", home.file(".local/share/systemd/user/tickerd.service")],
                                            environment: ["XDG_RUNTIME_DIR": runtime.path, "MANPATH": man.path])
        #expect(verified.status == 0 && verified.stdout + verified.stderr == "", "\(verified.stderr)")
    }
}
