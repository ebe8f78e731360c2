import DBus
import TickerModel

/// Answers one `List` call a slice at a time, so a daemon holding 100,000 messages keeps serving
/// other callers while it lists them all: each loop turn turns at most ``sliceSize`` messages into
/// entries, and the reply goes out once all are done.
///
/// The call lists the state as it was when it arrived: it keeps a copy of the message table and of
/// each channel's messages on its tape (copies of value types that share storage until the
/// manager changes them), so changes made while it works are not in its answer, and none is half
/// in it. The first change made while a list is under way pays for copying the message table.
final class ListReply {
    /// Messages turned into entries per loop turn.
    static let sliceSize = 500
    /// The most bytes an answer may take: the message size a `dbus-daemon` carries by default
    /// (`max_message_size`, 32 MiB), less room for the header. A bus disconnects a sender of a
    /// larger message, so a longer list is refused with `LimitExceeded` instead.
    static let maximumBytes = 32 * 1_048_576 - 65_536

    private let messages: MessageTable
    /// The channels still to list, in reverse name order (the next is last), with the ids on
    /// each one's tape.
    private var channels: [(name: String, active: Set<String>)]
    /// The current channel's message slots not yet listed, in reverse id order.
    private var pending: [(id: String, slot: Int)] = []
    private var current: (name: String, active: Set<String>)?
    private var entries: [DBusValue] = []
    /// An upper bound of the answer's encoded size so far.
    private var bytes = 16
    private let reply: MethodReply
    private let loop: EventLoop

    /// Lists the messages of `channels` (each with the ids on its tape) from `messages`, answering
    /// `reply` on `loop`.
    private init(messages: MessageTable, channels: [(name: String, active: Set<String>)], reply: MethodReply,
                 loop: EventLoop) {
        self.messages = messages
        self.channels = channels.sorted { $0.name > $1.name }
        self.reply = reply
        self.loop = loop
    }

    /// Starts answering `reply` with the messages of `channel` ("" for every channel) as `manager`
    /// holds them now, sorted by channel, then id; the first slice runs at once.
    static func start(channel: String, manager: Manager, reply: MethodReply, loop: EventLoop) {
        let names = channel.isEmpty ? Array(manager.channels.keys) : [channel]
        let channels = names.compactMap { name in
            manager.channels[name].map { (name: name, active: Set($0.activeIDs)) }
        }
        let list = ListReply(messages: manager.messages, channels: channels, reply: reply, loop: loop)
        list.step()
    }

    /// An upper bound of the bytes `record`'s entry takes in the answer: each of its at most 12
    /// fields with alignment, key (at most 8 bytes), signature and a fixed-size value in 40
    /// bytes, plus its texts.
    private static func encodedBound(_ record: MessageRecord) -> Int {
        let texts = record.id.utf8.count + record.channel.utf8.count + record.text.utf8.count
            + (record.link?.utf8.count ?? 0)
        let calendar: Int
        if case let .recurring(text, _) = record.window { calendar = text.utf8.count } else { calendar = 0 }
        return 16 + 12 * 40 + texts + calendar
    }

    /// Lists up to ``sliceSize`` messages, then either answers or comes back on a later turn.
    private func step() {
        var budget = Self.sliceSize
        while budget > 0 {
            if pending.isEmpty {
                guard let next = channels.popLast() else { break }
                current = next
                pending = messages.slots(inChannel: next.name).sorted { $0.id > $1.id }
                budget -= 1
                continue
            }
            guard let (_, slot) = pending.popLast(), let current else { continue }
            if let record = messages.record(atSlot: slot) {
                bytes += Self.encodedBound(record)
                guard bytes <= Self.maximumBytes else {
                    reply.fail(TickerError.limitExceeded(
                        "the list would be larger than a bus message may be (32 MiB by default); list one channel at a time"))
                    return
                }
                entries.append(BusValues.listEntry(record, active: current.active.contains(record.id)))
            }
            budget -= 1
        }
        if pending.isEmpty && channels.isEmpty {
            reply.succeed([.array(.structure([.string, .vardict]), entries)])
            return
        }
        // Through the loop's wait, so calls that arrived meanwhile are served before the next slice
        // (the loop holds the timer, and the timer this list, until it fires).
        loop.schedule(at: .now()) { [self] in step() }
    }
}
