import Foundation

/// How long and how big each scenario runs, from the command line.
///
/// `--smoke` picks tiny counts and 2 s windows (for the test that keeps the harness alive);
/// the other options override single values.
struct BenchSettings {
    /// Whether this is a smoke run (tiny sizes: no verdicts).
    var isSmoke = false
    /// Seconds of the idle wake-up window (the budget is stated for 60 s).
    var idleWindow: Double = 60
    /// Seconds of each load window (subscriber CPU, frame throughput).
    var loadWindow: Double = 20
    /// Posts timed for the latency percentiles.
    var posts = 1000
    /// Subscriber connections of the throughput scenario (400 × 60 fps asks for 24k frames/s,
    /// above the 20k/s budget).
    var frameClients = 400
    /// Frames per second each throughput subscriber asks for.
    var frameRate: Double = 60
    /// Scheduled messages in the large-config RSS scenario.
    var scheduledMessages = 100_000
    /// Daemon starts timed for start → READY=1.
    var starts = 10
    /// Whether to run the full-limits scenario (`--full-limits`) instead of the benchmarks.
    var isFullLimits = false
    /// Channels of the full-limits scenario (the default `[limits] channels`).
    var fullChannels = 64
    /// Always-active messages per channel of the full-limits scenario (the default `[limits] messages`).
    var fullActive = 1000
    /// Timed calls per figure of the full-limits scenario.
    var fullSamples = 200
    /// Whether to run the soak (`--soak`, issue 10) instead of the benchmarks.
    var isSoak = false
    /// Soak subscribers.
    var soakSubscribers = 200
    /// Frames per second each soak subscriber asks for.
    var soakFrameRate: Double = 30
    /// Seconds of the soak window.
    var soakWindow: Double = 60
    /// Seconds between the soak's Posts.
    var soakPostInterval = 0.01
    /// The tickerd binary (default: next to this executable).
    var tickerd = BenchSettings.sibling("tickerd")

    /// The settings of a smoke run: every scenario, tiny sizes.
    static var smoke: BenchSettings {
        var settings = BenchSettings()
        settings.idleWindow = 2
        settings.loadWindow = 2
        settings.posts = 20
        settings.frameClients = 10
        settings.scheduledMessages = 1000
        settings.starts = 2
        settings.fullChannels = 4
        settings.fullActive = 10
        settings.fullSamples = 5
        settings.isSmoke = true
        return settings
    }

    /// Parses `arguments` (without the program name); throws on an unknown or malformed option.
    static func parse(_ arguments: [String]) throws -> BenchSettings {
        var settings = arguments.contains("--smoke") ? BenchSettings.smoke : BenchSettings()
        settings.isSoak = arguments.contains("--soak")
        settings.isFullLimits = arguments.contains("--full-limits")
        var rest = arguments.filter { $0 != "--smoke" && $0 != "--soak" && $0 != "--full-limits" }[...]
        while let option = rest.popFirst() {
            if option == "--help" || option == "-h" {
                print(usage)
                exit(0)
            }
            guard let value = rest.popFirst() else { throw BenchError("\(option) needs a value\n\(usage)") }
            switch option {
            case "--window": settings.idleWindow = try number(value, option)
            case "--load-window": settings.loadWindow = try number(value, option)
            case "--posts": settings.posts = try count(value, option)
            case "--frame-clients": settings.frameClients = try count(value, option)
            case "--frame-rate": settings.frameRate = try number(value, option)
            case "--scheduled": settings.scheduledMessages = try count(value, option)
            case "--starts": settings.starts = try count(value, option)
            case "--tickerd": settings.tickerd = value
            case "--channels": settings.fullChannels = try count(value, option)
            case "--active": settings.fullActive = try count(value, option)
            case "--samples": settings.fullSamples = try count(value, option)
            case "--subscribers": settings.soakSubscribers = try count(value, option)
            case "--fps": settings.soakFrameRate = try number(value, option)
            case "--duration": settings.soakWindow = try number(value, option)
            case "--post-interval": settings.soakPostInterval = try number(value, option) / 1000
            default: throw BenchError("unknown option \(option)\n\(usage)")
            }
        }
        return settings
    }

    /// The command-line help.
    static let usage = """
    usage: tickerd-bench [--smoke] [--window S] [--load-window S] [--posts N] [--frame-clients N]
                         [--frame-rate FPS] [--scheduled N] [--starts N] [--tickerd PATH]
           tickerd-bench --full-limits [--channels N] [--active N] [--scheduled N] [--samples N]
                         [--tickerd PATH]
           tickerd-bench --soak [--subscribers N] [--fps FPS] [--duration S] [--post-interval MS]
                         [--tickerd PATH]
      --full-limits  N channels (64) of N always-active messages (1000) plus N scheduled
              (100000), from a config file; Post, Render, Ping and List "" timed (N calls: 200)
      --soak  the long load run (issue 10): N subscribers (200) at FPS (30) for S seconds (60)
              plus a Post every MS milliseconds (10); exits 1 when a verdict is missed
    """

    /// The path of `name` in the folder of this executable.
    static func sibling(_ name: String) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/" + name
    }

    private static func number(_ text: String, _ option: String) throws -> Double {
        guard let value = Double(text), value > 0 else { throw BenchError("\(option): not a positive number: \(text)") }
        return value
    }

    private static func count(_ text: String, _ option: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchError("\(option): not a positive count: \(text)") }
        return value
    }
}
