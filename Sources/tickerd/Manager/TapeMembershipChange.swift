/// Which messages joined and which left a channel's tape, between the ids on it before and after
/// an evaluation.
///
/// Message ids are unique on a tape, so the ids the two lists share at their start and at their
/// end are on both tapes: only the differing middles are compared, and a Post to a channel of
/// 1000 messages hashes the few ids around it, not 2000.
struct TapeMembershipChange {
    /// The ids on the old tape that are not on the new one, in old tape order.
    let left: [String]
    /// The ids on the new tape that were not on the old one, in new tape order.
    let joined: [String]

    /// The change from the tape of `old` ids to that of `new` ids (each list without repeats).
    init(from old: [String], to new: [String]) {
        let limit = min(old.count, new.count)
        var keep = 0
        while keep < limit, old[keep] == new[keep] { keep += 1 }
        var keepEnd = 0
        while keepEnd < limit - keep, old[old.count - 1 - keepEnd] == new[new.count - 1 - keepEnd] { keepEnd += 1 }
        let oldMiddle = old[keep..<(old.count - keepEnd)]
        let newMiddle = new[keep..<(new.count - keepEnd)]
        guard !oldMiddle.isEmpty, !newMiddle.isEmpty else {
            (left, joined) = (Array(oldMiddle), Array(newMiddle))
            return
        }
        let oldSet = Set(oldMiddle)
        let newSet = Set(newMiddle)
        left = oldMiddle.filter { !newSet.contains($0) }
        joined = newMiddle.filter { !oldSet.contains($0) }
    }
}
