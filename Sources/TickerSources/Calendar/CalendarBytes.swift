import Foundation
import TickerModel

/// An iCalendar document's bytes as text. RFC 5545 calendars are UTF-8, but exports from older
/// programs come in Windows-1252 (a superset of ISO-8859-1): such a calendar is read in that
/// encoding rather than refused, and the log says so, naming the first line that is not UTF-8.
///
/// Guarantees: never fails and never traps; UTF-8 input (with or without a byte order mark) is
/// the text as it is, with no problem reported.
enum CalendarBytes {
    /// The text of `data`, and what was not UTF-8 about it (nil when all was).
    static func text(of data: Data) -> (text: String, problem: String?) {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let line = UTF8Location.firstInvalid(in: bytes)?.line else {
            return (String(decoding: bytes, as: UTF8.self), nil)
        }
        if let text = String(data: Data(bytes), encoding: .windowsCP1252) {
            return (text, "line \(line) is not UTF-8 (as RFC 5545 requires); read as Windows-1252")
        }
        return (String(decoding: bytes, as: UTF8.self),
                "line \(line) is not UTF-8 (as RFC 5545 requires); its invalid bytes show as U+FFFD")
    }
}
