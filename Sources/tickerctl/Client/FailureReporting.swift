import ArgumentParser
import Glibc

/// Runs a command body and turns its failures into `tickerctl: …` lines on stderr and an exit
/// status, so every command reports errors the same way.
enum FailureReporting {
    /// Runs `body`; on failure prints the error and throws the matching `ExitCode`.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as ClientFailure {
            report(failure.lines + (failure.pointsToTheSystemBus ? SystemBusTickerd.probe().hint : []))
            throw ExitCode(failure.exitStatus)
        } catch let error as UsageError {
            report(error.lines)
            throw ExitCode(64)
        }
    }

    /// Writes each line to stderr prefixed with `tickerctl: `.
    static func report(_ lines: [String]) {
        for line in lines {
            StandardOutput(fd: STDERR_FILENO).write("tickerctl: " + line + "\n")
        }
    }
}
