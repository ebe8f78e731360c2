import Foundation
import TickerModel

/// Zones read from the machine's zoneinfo files, for tests (TickerModel itself never reads files).
struct SystemZones: TimeZoneLookup {
    let localZone: ZoneRules

    /// The zones with `localName` (a zoneinfo name, or "UTC") as the local zone.
    init(local localName: String) {
        localZone = Self.load(localName) ?? .utc
    }

    func zone(named name: String) -> ZoneRules? {
        guard TimeZoneName.isWellFormed(name) else { return nil }
        return Self.load(name)
    }

    static func load(_ name: String) -> ZoneRules? {
        guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else { return nil }
        return try? TZifParser.parse([UInt8](data), name: name)
    }
}

/// What a child process printed.
struct ProcessOutput {
    let standardOutput: String
    let standardError: String
    let status: Int32
}

/// Runs a program to completion with extra (or `unset`) environment variables and optional input (the program
/// must write at most a pipe buffer of standard error).
func runProcess(_ path: String, _ arguments: [String], environment extra: [String: String] = [:],
                unset: [String] = [], input: String? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C"
    environment["SYSTEMD_COLORS"] = "0"
    environment["SYSTEMD_PAGER"] = "cat"
    for (key, value) in extra { environment[key] = value }
    for key in unset { environment[key] = nil }
    process.environment = environment
    let outPipe = Pipe()
    let errPipe = Pipe()
    let inPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    // The reference tools write little to standard error, so reading it after standard output
    // cannot fill its pipe.
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(standardOutput: String(decoding: outData, as: UTF8.self),
                         standardError: String(decoding: errData, as: UTF8.self),
                         status: process.terminationStatus)
}


/// The zones the reference comparisons run in.
let referenceZones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"]
