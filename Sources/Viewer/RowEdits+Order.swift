import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// The edits' order read as lists (V10): the added rows in it, and a set of rows listed as the
/// order has them, for a filter made on a view in the edits' order (rows added or moved).
extension RowEdits {
    /// The added rows in the order (deleted ones too, until a save drops them), first to last.
    var addedIDs: [Int] {
        pieces.compactMap { piece in
            if case .added(let id) = piece { id } else { nil }
        }
    }

    /// `ids` — input rows in ascending order, and added rows (negative) — listed in the edits'
    /// order: a run of the input's rows takes its part of `ids` at once (a binary search at each
    /// end), an added row its place.
    func listed(_ ids: [Int32], loaded: Int) -> [Int32] {
        let input = ids.filter { $0 >= 0 }
        let added = Set(ids.filter { $0 < 0 })
        func lowerBound(_ value: Int) -> Int {
            var low = 0, high = input.count
            while low < high {
                let middle = (low + high) / 2
                if Int(input[middle]) < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var out: [Int32] = []
        out.reserveCapacity(ids.count)
        for piece in runs(loaded: loaded) {
            switch piece {
            case .rows(let range): out += input[lowerBound(range.lowerBound)..<lowerBound(range.upperBound)]
            case .added(let id): if added.contains(Int32(id)) { out.append(Int32(id)) }
            }
        }
        return out
    }
}
