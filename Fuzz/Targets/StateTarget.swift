import Foundation
import TickerModel
@testable import tickerd

/// `state.json`, as a restart reads it. Properties:
/// - a file that decodes re-encodes (as the daemon writes it) and decodes to the same snapshot;
/// - restoring any decodable snapshot never crashes: the daemon comes up, every channel renders
///   frames of exactly the asked width, and the state it would then store encodes (so the next
///   change can be saved, and a bad value in one file cannot stop every later save).
enum StateTarget {
    static let now: Instant = 1_711_845_000_000_000

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 16_384 else { return }
        guard let snapshot = try? JSONDecoder().decode(StateSnapshot.self, from: Data(input.bytes)) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let data = try encoder.encode(snapshot)
            let again = try JSONDecoder().decode(StateSnapshot.self, from: data)
            require(again == snapshot, "the snapshot changed through encode and decode")
        } catch {
            require(false, "a decoded snapshot does not round-trip: \(error)")
        }
        let manager = Manager(zones: FuzzZones.table, clock: { now })
        _ = manager.restore(snapshot)
        for name in manager.channels.keys {
            for columns: UInt32 in [1, 13, 80] {
                for at: Instant in [now, now + 2_500_000, now + 86_400_000_000] {
                    guard let frame = try? manager.render(channel: name, columns: columns, at: at) else {
                        require(false, "restored channel '\(name)' does not render")
                        return
                    }
                    require(CellWidth.of(frame.text) == Int(columns),
                            "restored channel '\(name)': frame '\(frame.text)' is \(CellWidth.of(frame.text)) cells, not \(columns)")
                }
            }
        }
        do {
            _ = try encoder.encode(manager.snapshot())
        } catch {
            require(false, "the restored state cannot be stored again: \(error)")
        }
    }
}
