import TickerModel

/// A rendered message text made into one tickerd accepts, so that an item is shown rather than
/// refused: a notification's long body, a title carrying bidi marks, a calendar description.
///
/// Guarantees: a pure function that never traps; for any input the result passes
/// `TextSanitizer.sanitize(_:limits:)` with `limits` (or is empty); text that already passes comes
/// out unchanged. Bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) are
/// dropped, other control characters and U+2028/U+2029 become spaces, a cluster of more scalars
/// than the limit keeps its first ones, clusters that would join a neighbour at either end are
/// dropped, and a text over the cluster or byte limit is cut and ends with `…`.
enum TickerText {
    /// `text` as tickerd will take it under `limits` (its defaults when not configured otherwise).
    static func fitted(_ text: String, limits: Limits = .standard) -> String {
        if (try? TextSanitizer.sanitize(text, limits: limits)) != nil { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            case _ where TextSanitizer.isForbidden(scalar):
                scalars.append(" ")
            default:
                scalars.append(scalar)
            }
        }
        var clusters: [String] = []
        for cluster in String(scalars) {
            let inner = cluster.unicodeScalars
            if inner.count <= limits.scalarsPerCluster {
                clusters.append(String(cluster))
            } else {
                clusters.append(String(String.UnicodeScalarView(inner.prefix(limits.scalarsPerCluster))))
            }
        }
        while let first = clusters.first, !standsAlone(first, atStart: true) { clusters.removeFirst() }
        while let last = clusters.last, !standsAlone(last, atStart: false) { clusters.removeLast() }
        let ellipsis = "…"
        var bytes = clusters.reduce(0) { $0 + $1.utf8.count }
        if clusters.count > limits.clustersPerMessage || bytes > limits.bytesPerMessage {
            var kept: [String] = []
            bytes = ellipsis.utf8.count
            for cluster in clusters {
                guard kept.count < limits.clustersPerMessage - 1, bytes + cluster.utf8.count <= limits.bytesPerMessage else { break }
                kept.append(cluster)
                bytes += cluster.utf8.count
            }
            while let last = kept.last, !standsAlone(last, atStart: false) || last == " " { kept.removeLast() }
            clusters = kept + [ellipsis]
        }
        return clusters.joined()
    }

    /// Whether `cluster` stays one cluster next to the tape's separator, padding and neighbours
    /// (as `TextSanitizer` requires of a text's first and last cluster).
    private static func standsAlone(_ cluster: String, atStart: Bool) -> Bool {
        if atStart { return (" " + cluster).count == 2 }
        return [" ", "🚀", "🇦"].allSatisfy { (cluster + $0).count == 2 }
    }
}
