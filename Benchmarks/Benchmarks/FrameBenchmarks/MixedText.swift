// Sample text of the package-benchmark suite: a tape of mixed scripts (CJK, emoji, flags,
// combining marks).
// No import of Benchmark here.

/// A tape of about `clusters` extended grapheme clusters: mostly ASCII with some CJK and emoji.
func makeMessages(clusters: Int) -> [String] {
    let words = ["ticker", "daemon", "中文字", "news", "🚀", "weather", "🇩🇪", "e\u{301}t\u{E9}", "update"]
    var messages: [String] = []
    var message = ""
    var count = 0
    var index = 0
    while count < clusters {
        let word = words[index % words.count]
        message += word + " "
        count += word.count + 1
        index += 1
        if message.count > 200 {
            messages.append(message)
            message = ""
        }
    }
    if !message.isEmpty { messages.append(message) }
    return messages
}
