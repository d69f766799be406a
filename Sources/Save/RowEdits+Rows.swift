import Input
import Options
import Schedule
import Support
import Text
import Transform
/// The store's rows as edited (V10): each row with its changed fields in place, and the added
/// rows (negative ids) from the edits alone. What the view draws, sorts, filters and searches,
/// so an edited value is what is seen and found. Holds a copy of the edits (a value): a sort
/// running on another thread sees them as they were when it started.
package final class EditedRows: ViewRows, @unchecked Sendable {
    package let base: any ViewRows
    package let edits: RowEdits

    package init(_ base: any ViewRows, edits: RowEdits) {
        self.base = base
        self.edits = edits
    }

    package var count: Int { base.count }
    package var problem: InputError? { base.problem }

    package func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        var id = range.lowerBound
        // Added rows (negative ids) one by one, from the edits.
        while id < min(0, range.upperBound) {
            let record = Self.merged(nil, edits.fields[id] ?? [:])
            if !record.withFields({ body(id, $0) }) { return }
            id += 1
        }
        guard id < range.upperBound else { return }
        base.scan(id..<range.upperBound) { id, fields in
            guard let changes = edits.fields[id], !changes.isEmpty else { return body(id, fields) }
            return Self.merged(fields, changes).withFields { body(id, $0) }
        }
    }

    /// `fields` (nil: none) with `changes` put in, a short row padded with empty fields to reach
    /// a changed one.
    package static func merged(_ fields: Fields?, _ changes: [Int: [UInt8]]) -> Record {
        let count = max(fields?.count ?? 0, (changes.keys.max() ?? -1) + 1)
        var record = Record()
        for k in 0..<count {
            if let value = changes[k] {
                value.withUnsafeBufferPointer { record.append($0) }
            } else if let fields {
                record.append(fields[k])
            } else {
                record.endField()
            }
        }
        return record
    }
}
