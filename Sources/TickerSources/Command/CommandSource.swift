import DBus
import Glibc
import Logging
import TOMLConfig

/// A command's output as a message: run every `interval` (its output replaces the message), or
/// with `persist = true` kept running, each line it prints replacing the message (like i3blocks'
/// persist blocks; restarted `interval` after it exits).
///
/// Guarantees: a command that fails (non-zero exit, or killed) shows nothing and its exit status
/// and stderr are logged once until it succeeds again; a run is never started while the previous
/// one is still going; stopping the source ends the command's process group.
public final class CommandSource: ItemSource {
    /// How the command runs.
    public enum Mode: Hashable, Sendable {
        /// Run every interval (microseconds); the whole output is the text.
        case periodic(interval: Int64)
        /// Keep running; each line is the text; restart this long (microseconds) after an exit.
        case persistent(restartAfter: Int64)
    }

    /// The shell command (`/bin/sh -c`).
    public let command: String
    /// How it runs.
    public let mode: Mode
    /// The link of its message, if configured.
    public let link: String?

    private var context: SourceContext?
    private var reaper: ChildReaper? { context?.children }
    private var running: ChildReaper.Child?
    private var stdoutReader: PipeReader?
    private var stderrReader: PipeReader?
    private var timer: LoopTimer?
    private var lastFailure: String?
    private var stopped = false

    /// A source running `command` in `mode`.
    public init(command: String, mode: Mode, link: String? = nil) {
        self.command = command
        self.mode = mode
        self.link = link
    }

    /// The `command` kind: keys `command`, `interval`, `persist`, `url`; field `{output}`.
    public static let kind = SourceKind(
        name: "command", fields: ["output"], keys: ["command", "interval", "persist", "url"]
    ) { table throws(ConfigError) in
        guard let command = try table.string("command"), !command.isEmpty else {
            throw table.error("command", "missing or empty: the shell command to run")
        }
        let persist = try table.bool("persist") ?? false
        let interval = try SourcesConfigLoader.timeSpan(table, "interval")
        if let interval, interval < 100_000 { throw table.error("interval", "must be at least 100ms") }
        let link = try SourcesConfigLoader.link(table, "url")
        if persist { return CommandSource(command: command, mode: .persistent(restartAfter: interval ?? 5_000_000), link: link) }
        guard let interval else { throw table.error(nil, "missing key 'interval' (how often to run the command), or set persist = true") }
        return CommandSource(command: command, mode: .periodic(interval: interval), link: link)
    }

    /// Runs the command now (and then as its mode says).
    public func start(_ context: SourceContext) throws {
        self.context = context
        timer = context.loop.makeTimer { [weak self] in self?.run() }
        run()
    }

    /// Stops scheduling runs and ends a running command's process group.
    public func stop() {
        stopped = true
        timer?.cancel()
        if let running { reaper?.terminate(running.pid) }
    }

    private func run() {
        guard let context, let reaper, running == nil, !stopped else { return }
        do {
            let child = try reaper.spawn(command) { [weak self] status in self?.exited(status) }
            running = child
            if case .persistent = mode {
                stdoutReader = try PipeReader(fd: child.stdout, loop: context.loop) { [weak self] line in
                    self?.show(line)
                }
            } else {
                stdoutReader = try PipeReader(fd: child.stdout, loop: context.loop)
            }
            stderrReader = try PipeReader(fd: child.stderr, loop: context.loop, limit: 4096)
        } catch {
            context.logger.error("cannot start the command: \(error)")
            scheduleNext()
        }
    }

    private func exited(_ status: Int32) {
        stdoutReader?.drain()
        stderrReader?.drain()
        let output = stdoutReader.map { String(decoding: $0.collected, as: UTF8.self) } ?? ""
        let errors = stderrReader.map { String(decoding: $0.collected, as: UTF8.self) } ?? ""
        stdoutReader?.close()
        stderrReader?.close()
        (stdoutReader, stderrReader, running) = (nil, nil, nil)
        if stopped { return }
        let clean = exitedCleanly(status)
        switch mode {
        case .periodic:
            if clean {
                lastFailure = nil
                show(output)
            } else {
                context?.publish([])
                report(status, errors)
            }
        case .persistent:
            // Its last line goes with it.
            context?.publish([])
            if clean {
                lastFailure = nil
                context?.logger.info("the command exited; it runs again in \(Self.seconds(mode))")
            } else {
                report(status, errors)
            }
        }
        scheduleNext()
    }

    /// Logs a failure once (until the command succeeds or fails differently).
    private func report(_ status: Int32, _ errors: String) {
        let failure = describeWaitStatus(status)
        let detail = errors.trimmingWhitespace
        guard failure + "|" + detail != lastFailure else { return }
        lastFailure = failure + "|" + detail
        context?.logger.error("the command failed with \(failure)\(detail.isEmpty ? "" : "; it said: \(detail)")")
    }

    private static func seconds(_ mode: Mode) -> String {
        switch mode {
        case .periodic(let interval), .persistent(let interval): return "\(Double(interval) / 1e6)s"
        }
    }

    private func show(_ output: String) {
        let text = output.collapsingWhitespace
        context?.publish(text.isEmpty ? [] : [SourceItem(key: "output", fields: ["output": text], link: link)])
    }

    private func scheduleNext() {
        guard !stopped else { return }
        switch mode {
        case .periodic(let interval), .persistent(let interval):
            timer?.schedule(at: .after(.microseconds(interval)))
        }
    }
}
