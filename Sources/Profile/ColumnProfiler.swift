import Input
import Text

/// Looks at each row of the sizing window once and keeps a profile per column (C1, C3, W2).
package struct ColumnProfiler {
    /// One a column (set by `add(_:in:)` too, for a batch).
    package var profiles: [ColumnProfile] = []
    /// Rows taken in (set by `add(_:in:)` too, for a batch).
    package var rows = 0
    package let measure: DisplayWidth
    /// Whether to measure the longest word of each cell (only wrapping needs it).
    package let trackWords: Bool
    /// Whether each cell that is not ASCII is checked as UTF-8 (`ColumnProfile.checksUTF8`).
    package let checksUTF8: Bool

    package init(columns: [String], measure: DisplayWidth, trackWords: Bool = false, checksUTF8: Bool = false) {
        self.measure = measure
        self.trackWords = trackWords
        self.checksUTF8 = checksUTF8
        profiles = columns.map { ColumnProfile(name: $0, checksUTF8: checksUTF8) }
    }

    /// With `checksUTF8`: a cell was not valid UTF-8.
    package var sawInvalidUTF8: Bool { profiles.contains { $0.sawInvalidUTF8 } }

    /// Adds columns that appeared after the profiler was made.
    package mutating func sync(columns: [String]) {
        while profiles.count < columns.count { profiles.append(ColumnProfile(name: columns[profiles.count], checksUTF8: checksUTF8)) }
    }

    /// Takes one row into account.
    package mutating func add(_ record: Record) {
        record.withFields { add($0) }
    }

    /// Takes one row into account, seen in place: in a record, or where its fields lie in a
    /// stream's buffer (`Fields.starts`).
    /// - Complexity: O(bytes of the row); no allocation.
    package mutating func add(_ fields: Fields) {
        rows += 1
        let count = min(fields.count, profiles.count)
        let measure = measure, trackWords = trackWords
        profiles.withUnsafeMutableBufferPointer { columns in
            if let starts = fields.starts {
                for i in 0..<count {
                    let cell = UnsafeBufferPointer(start: fields.base + starts[i], count: fields.ends[i] &- starts[i])
                    columns[i].note(cell, settled: measure, trackWords: trackWords)
                }
                return
            }
            // The fields in order, each starting where the one before ended.
            var start = 0
            for i in 0..<count {
                let end = fields.ends[i]
                let cell = UnsafeBufferPointer(start: fields.base + start, count: end &- start)
                columns[i].note(cell, settled: measure, trackWords: trackWords)
                start = end
            }
        }
    }
}

extension ColumnProfiler {
    /// Takes in what another profiler saw of other rows of the same table (the reader thread's
    /// share of the sizing pass). The result types and sizes every column as if one profiler had
    /// seen all the rows, in any order: a column's profile does not depend on the rows' order.
    package mutating func merge(_ other: ColumnProfiler) {
        merge(other, into: Array(other.profiles.indices))
    }

    /// The same, for a profiler whose column `k` is this one's `columns[k]` (a piece of a JSON
    /// file finds its keys in an order of its own); the columns here go up to every one named.
    package mutating func merge(_ other: ColumnProfiler, into columns: [Int]) {
        rows += other.rows
        for (k, profile) in other.profiles.enumerated() {
            let target = columns[k]
            while profiles.count <= target { profiles.append(ColumnProfile(name: profile.name)) }
            profiles[target].merge(profile)
        }
    }
}

extension ColumnProfiler {
    /// Makes room in a column for a footer number.
    package mutating func noteFooter(column: Int, _ text: String) {
        guard column < profiles.count else { return }
        profiles[column].noteFooter(text, measure: measure)
    }
}
