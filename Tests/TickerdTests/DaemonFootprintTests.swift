import Foundation
import Testing
import TestSupport

/// What the running daemon maps (issue 20: idle RSS ≤ 16 MB). Foundation, its internationalisation
/// layer and ICU (a 37 MB data table) cost the idle daemon about 3 MB of resident pages at start,
/// and nothing in it needs them: it links FoundationEssentials only.
@Suite struct DaemonFootprintTests {
    /// The libraries a process maps, by file name (`/proc/PID/maps`).
    static func mappedLibraries(pid: pid_t) throws -> Set<String> {
        // Read to the end: a /proc file states no size, and String(contentsOfFile:) stops early.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var names = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                  path.hasPrefix("/") else { continue }
            names.insert(String(path.split(separator: "/").last ?? path))
        }
        return names
    }

    /// With the Swift libraries linked dynamically (debug and test builds) every Swift library the
    /// daemon links is mapped by name; a static release build holds the same set of modules.
    @Test func theDaemonLinksNeitherFoundationNorICU() throws {
        let fixture = try DaemonFixture()
        let libraries = try Self.mappedLibraries(pid: fixture.daemon.process.pid)
        try #require(libraries.contains("libswiftCore.so"), "a dynamically linked daemon: \(libraries.sorted())")
        for name in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!libraries.contains(name), "tickerd maps \(name)")
        }
    }
}
