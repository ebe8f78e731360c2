import Foundation

/// The Python of the test virtualenv that `make python-test-deps` creates in `.build-pyenv` of
/// the checkout (recurring-ical-events, feedparser: the independent implementations the calendar
/// and feed tests compare against). `TICKERD_TEST_PYTHON` names another interpreter.
public enum PythonVenv {
    /// The checkout's root, found from this file's place in it.
    public static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The interpreter to run, or an error telling how to create it.
    public static func python() throws -> String {
        if let chosen = ProcessInfo.processInfo.environment["TICKERD_TEST_PYTHON"], !chosen.isEmpty {
            return chosen
        }
        let path = repositoryRoot + "/.build-pyenv/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("no \(path): run `make python-test-deps` (a venv with recurring-ical-events and feedparser)")
        }
        return path
    }
}
