import Foundation

/// The configuration files the daemon runs with during the benchmarks.
enum BenchConfigs {
    /// One message (longer than any frame, so it moves) scrolling on `main` at 60 cells/s (so
    /// every frame at up to 60 fps differs), no broadcast frames, room for the throughput
    /// subscribers.
    static func scrolling(subscribers: Int) -> String {
        """
        [limits]
        subscribers = \(max(256, subscribers + 16))

        [channel.main]
        mode = "continuous"
        speed = 60
        frame-rate = 0

        [[message]]
        id = "bench-scrolling"
        text = "\(String(repeating: "tickerd benchmark: a message that keeps scrolling while nobody is watching. ", count: 4))"
        """
    }

    /// `count` messages on `main`, each with a window that opens a day or more from now (so all
    /// of them are scheduled and none is on the tape).
    static func scheduled(count: Int, now: Date = Date()) -> String {
        let base = Int(now.timeIntervalSince1970) + 86_400
        var text = """
        [limits]
        messages = \(count + 10)

        [channel.main]
        frame-rate = 0

        """
        text.reserveCapacity(count * 80)
        for index in 0..<count {
            text += "\n[[message]]\nid = \"s\(index)\"\ntext = \"scheduled message number \(index)\"\nstart = \"@\(base + index * 60)\"\n"
        }
        return text
    }
}
