import Foundation
import Testing
import TestSupport

/// The systemd units (`systemd/tickerd.service`, `systemd/user/tickerd.service`), sysusers and the
/// activation files: verified offline by systemd's own tools, and consistent with each other.
@Suite struct UnitFileTests {
    static let system = "systemd/tickerd.service"
    static let user = "systemd/user/tickerd.service"

    @Test func systemUnitVerifiesWithoutAWord() throws {
        let verified = try SystemdAnalyze.verify(try UnitFile(Self.system), user: false)
        #expect(verified.status == 0)
        #expect(verified.stdout + verified.stderr == "")
    }

    @Test func userUnitVerifiesWithoutAWord() throws {
        let verified = try SystemdAnalyze.verify(try UnitFile(Self.user), user: true)
        #expect(verified.status == 0)
        #expect(verified.stdout + verified.stderr == "")
    }

    /// DESIGN §5: the system unit is hardened to an exposure of 1.0 or less.
    @Test func systemUnitExposureIsAtMostOne() throws {
        let (score, report) = try SystemdAnalyze.exposure(try UnitFile(Self.system), user: false)
        #expect(score <= 1.0, "\(report)")
    }

    /// A user manager cannot drop capabilities or set up namespaces without user namespaces (which
    /// some systems deny to unprivileged users), so the user unit takes every hardening option
    /// of the system unit that works without them — and no others.
    @Test func userUnitHasEveryHardeningThatNeedsNoNamespace() throws {
        let withoutNamespaces: Set<String> = [
            "NoNewPrivileges", "LockPersonality", "MemoryDenyWriteExecute", "RestrictRealtime",
            "RestrictSUIDSGID", "RestrictNamespaces", "RestrictAddressFamilies", "SystemCallArchitectures",
            "SystemCallFilter", "SystemCallErrorNumber", "UMask", "KeyringMode",
        ]
        let system = try UnitFile(Self.system)
        let user = try UnitFile(Self.user)
        #expect(system.keys(in: "Service").isSuperset(of: withoutNamespaces))
        for key in withoutNamespaces {
            #expect(user.values(key) == system.values(key), "\(key)")
        }
        let needsNamespaces = system.keys(in: "Service").subtracting(withoutNamespaces).filter {
            $0.hasPrefix("Protect") || $0.hasPrefix("Private") || $0.hasSuffix("Capabilities")
                || $0 == "CapabilityBoundingSet" || $0 == "ProcSubset" || $0 == "User" || $0 == "Group"
        }
        #expect(!needsNamespaces.isEmpty)
        #expect(user.keys(in: "Service").isDisjoint(with: needsNamespaces))
    }

    @Test func unitsAndActivationFilesNameTheSameService() throws {
        let system = try UnitFile(Self.system)
        let user = try UnitFile(Self.user)
        let systemActivation = try UnitFile("dbus-policy/system-services/io.github.tickerd.Ticker1.service")
        let sessionActivation = try UnitFile("dbus-policy/services/io.github.tickerd.Ticker1.service")
        let name = "io.github.tickerd.Ticker1"
        for unit in [system, user] {
            #expect(unit.values("Type") == ["notify"])
            #expect(unit.values("BusName") == [name])
            #expect(unit.values("Documentation").first?.hasPrefix("man:tickerd(8)") == true)
            #expect(unit.values("ExecStart").first?.hasPrefix("/usr/bin/tickerd --bus ") == true)
        }
        #expect(system.values("User") == ["tickerd"])
        #expect(system.values("Alias") == ["dbus-\(name).service"])
        #expect(systemActivation.values("Name") == [name])
        #expect(systemActivation.values("User") == ["tickerd"])
        #expect(systemActivation.values("Exec") == ["/bin/false"])
        #expect(systemActivation.values("SystemdService") == system.values("Alias"))
        #expect(sessionActivation.values("Name") == [name])
        #expect(sessionActivation.values("SystemdService") == ["tickerd.service"])
        #expect(sessionActivation.values("Exec") == user.values("ExecStart"))
    }

    /// `systemd-sysusers` makes the static user the unit and the bus policy name, in a scratch root.
    @Test func sysusersCreatesTheStaticUser() throws {
        let root = try TemporaryDirectory(prefix: "tickerd-sysroot")
        try FileManager.default.createDirectory(atPath: root.file("etc"), withIntermediateDirectories: true)
        // --root resolves configuration files inside the root, so the lines go in with --inline.
        let lines = try Repository.read("systemd/sysusers.d/tickerd.conf").split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1)
        let made = try ChildProcess.run("systemd-sysusers", ["--root=\(root.path)", "--inline"] + lines.map(String.init))
        #expect(made.status == 0, "\(made.stderr)")
        let passwd = try String(contentsOfFile: root.file("etc/passwd"), encoding: .utf8)
        let group = try String(contentsOfFile: root.file("etc/group"), encoding: .utf8)
        let user = try #require(passwd.split(separator: "\n").first { $0.hasPrefix("tickerd:") })
        let fields = user.split(separator: ":", omittingEmptySubsequences: false)
        #expect(fields.count == 7)
        #expect(fields.count == 7 && fields[5] == "/var/lib/tickerd" && fields[6] == "/usr/sbin/nologin")
        let uid = try #require(fields.count > 2 ? Int(fields[2]) : nil)
        #expect((1..<1000).contains(uid), "a system uid")
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("tickerd:x:\(fields[3]):") })
    }
}
