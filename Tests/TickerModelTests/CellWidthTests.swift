import Foundation
import Testing
@testable import TickerModel

/// Checks the generated tables against the Unicode data files themselves (Debian `unicode-data`).
@Suite struct CellWidthTests {
    static let directory = "/usr/share/unicode"

    /// Code points listed in a `A..B ; value` file with one of `values`.
    static func listed(_ path: String, values: Set<String>) throws -> Set<UInt32> {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var set = Set<UInt32>()
        for line in text.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, values.contains(fields[1]) else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            guard let low = bounds.first, let high = bounds.last else { continue }
            for value in low...high { set.insert(value) }
        }
        return set
    }

    /// Code points of UnicodeData.txt in categories `categories` (First/Last ranges expanded).
    static func category(_ categories: Set<String>) throws -> Set<UInt32> {
        let text = try String(contentsOfFile: directory + "/UnicodeData.txt", encoding: .utf8)
        var set = Set<UInt32>()
        var first: UInt32?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count > 2, let value = UInt32(fields[0], radix: 16) else { continue }
            if fields[1].hasSuffix(", First>") {
                first = value
                continue
            }
            let low = fields[1].hasSuffix(", Last>") ? (first ?? value) : value
            if categories.contains(String(fields[2])) {
                for v in low...value { set.insert(v) }
            }
        }
        return set
    }

    @Test("wide and zero-width tables agree with EastAsianWidth.txt, emoji-data.txt and UnicodeData.txt")
    func tablesMatchDataFiles() throws {
        let wide = try Self.listed(Self.directory + "/EastAsianWidth.txt", values: ["W", "F"])
            .union(Self.listed(Self.directory + "/emoji/emoji-data.txt", values: ["Emoji_Presentation"]))
        let zero = try Self.category(["Mn", "Me", "Cf"])
        #expect(wide.contains(0x4E2D) && wide.contains(0x1F600) && zero.contains(0x0301))
        // Every 37th code point of the whole range, plus every listed one below U+20000.
        var sample = Set(stride(from: UInt32(0), through: 0x10FFFF, by: 37))
        sample.formUnion(wide.filter { $0 < 0x20000 })
        sample.formUnion(zero.filter { $0 < 0x20000 })
        var checked = 0
        for value in sample {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(CellWidth.isWide(scalar) == wide.contains(value), "U+\(String(value, radix: 16)) wide")
            let hangulMedial = (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
            #expect(CellWidth.isZeroWidth(scalar) == (zero.contains(value) || hangulMedial), "U+\(String(value, radix: 16)) zero")
            checked += 1
        }
        #expect(checked > 30_000)
    }

    @Test("cluster widths follow the rules", arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\u{200D}", 0),
        ("中", 2), ("ｶ", 1), ("Ａ", 2), ("한", 2), ("\u{1100}\u{1161}\u{11A8}", 2),
        ("😀", 2), ("🇩🇪", 2), ("👩\u{200D}👩\u{200D}👧", 2), ("👨🏽\u{200D}💻", 2),
        ("❤", 1), ("❤️", 2), ("1️⃣", 2), ("…", 1), ("•", 1),
    ])
    func clusterWidths(_ text: String, _ width: Int) throws {
        let cluster = try #require(text.first)
        #expect(text.count == 1)
        #expect(CellWidth.of(cluster) == width, "\(text.debugDescription)")
    }

    @Test("the generator script is kept in the repo and the committed table is its output")
    func generatorIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/gen-width-tables.py")
        #expect(FileManager.default.isExecutableFile(atPath: script.path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, Self.directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = try Data(contentsOf: root.appendingPathComponent("Sources/TickerModel/Width/WidthTables.swift"))
        #expect(output == committed, "run scripts/gen-width-tables.py > Sources/TickerModel/Width/WidthTables.swift")
    }
}
