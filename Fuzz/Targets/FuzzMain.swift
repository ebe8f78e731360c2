#if canImport(Glibc)
import Glibc
#endif

/// The libFuzzer entry points of `tickerd-fuzz`. One binary holds every target; `FUZZ_TARGET`
/// (read once, in `LLVMFuzzerInitialize`) picks the one this process runs.

/// Every fuzz target, by the name `FUZZ_TARGET` uses and the corpus folder carries.
let fuzzTargets: [String: @Sendable (FuzzInput) -> Void] = [
    "calendar": CalendarTarget.run,
    "timespan": TimeSpanTarget.run,
    "timestamp": TimestampTarget.run,
    "sanitizer": SanitizerTarget.run,
    "tzif": TZifTarget.run,
    "config": ConfigTarget.run,
    "state": StateTarget.run,
    "template": TemplateTarget.run,
    "sources": SourcesConfigTarget.run,
    "ics": ICSTarget.run,
    "feed": FeedTarget.run,
]

/// The target chosen by `FUZZ_TARGET`; set before the first input.
nonisolated(unsafe) var selectedTarget: (@Sendable (FuzzInput) -> Void)?

/// Called by libFuzzer once before the first input: picks the target or exits with usage.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = fuzzTargets[name] else {
        let names = fuzzTargets.keys.sorted().joined(separator: ", ")
        writeToStandardError("tickerd-fuzz: set FUZZ_TARGET to one of: \(names) (got '\(name)')\n")
        exit(2)
    }
    selectedTarget = target
    return 0
}

/// Called by libFuzzer for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?(FuzzInput(bytes))
    return 0
}
