import Transform
import Options
import Profile
import Text
/// Decides column widths (W2–W5). Pure integer arithmetic.
package enum WidthAllocator {
    /// One column's bounds for allocation.
    package struct Column: Sendable, Equatable {
        /// W2: the widest cell or the heading if wider.
        package var natural: Int
        /// The narrowest it may become (W4); equal to `natural` when it must not give way (numbers).
        package var minimum: Int
        /// Whether it may give way at all (text does, numbers never: C7).
        package var flexible: Bool

        package init(natural: Int, minimum: Int, flexible: Bool) {
            self.natural = natural
            self.minimum = min(minimum, natural)
            self.flexible = flexible
        }
    }

    /// The outcome: widths for the columns kept (a prefix of the input), and how many were kept.
    package struct Result: Sendable, Equatable {
        package var widths: [Int]
        package var kept: Int

        package init(widths: [Int], kept: Int) {
            self.widths = widths
            self.kept = kept
        }
    }

    /// Fits columns into `available` display columns with `gap` between neighbours.
    ///
    /// 1. Natural widths (W2), capped at `maximum` for flexible columns when there are two or more (W3).
    /// 2. If the sum fits, done.
    /// 3. Flexible columns give way, the widest first, down to their minimum (W4, W5): the widths are
    ///    levelled down to the largest common level that fits, and the columns of that level share
    ///    what is left, so the widths sum exactly to the space.
    /// 4. If they still do not fit, the rightmost column (never the first) is left out and the
    ///    rest are fitted again from step 1 (W5).
    /// - Parameters:
    ///   - columns: bounds in display order.
    ///   - available: the container width; nil is unlimited.
    ///   - gap: padding between two columns.
    ///   - maximum: W3's cap for one column (padding excluded), applied only with 2+ columns.
    /// - Complexity: O(n² log w) at worst, for n columns and width w.
    package static func fit(_ columns: [Column], available: Int?, gap: Int, maximum: Int?) -> Result {
        guard let available else { return Result(widths: columns.map(\.natural), kept: columns.count) }
        guard !columns.isEmpty else { return Result(widths: [], kept: 0) }
        // Step 1: natural widths, with the W3 cap on flexible columns when there are two or more
        // (a cap below the minimum lowers the minimum too: a column is never wider than the cap).
        func capped(_ column: Column, _ kept: Int) -> Column {
            guard let maximum, kept > 1, column.flexible, column.natural > maximum else { return column }
            return Column(natural: maximum, minimum: min(column.minimum, maximum), flexible: true)
        }
        // Sums of the giving-way widths over every prefix, so that step 4 finds how
        // many columns to keep in one pass instead of refitting once per column left out.
        var fixedSums = [0]
        fixedSums.reserveCapacity(columns.count + 1)
        for column in columns {
            let c = capped(column, columns.count)
            fixedSums.append(fixedSums[fixedSums.count - 1] + (c.flexible ? c.minimum : c.natural))
        }
        var kept = columns.count
        while kept > 1 {
            let space = available - gap * (kept - 1)
            if fixedSums[kept] <= space { break }  // steps 2–3 can fit these
            kept -= 1  // step 4: leave out the rightmost, never the first
        }
        let part = columns[0..<kept].map { capped($0, kept) }
        var widths = part.map(\.natural)
        let space = available - gap * (kept - 1)
        // Step 2.
        if widths.reduce(0, +) <= space { return Result(widths: widths, kept: kept) }
        // Step 3.
        let fixed = part.reduce(0) { $0 + ($1.flexible ? $1.minimum : $1.natural) }
        if fixed <= space {
            level(&widths, part, space: space)
            return Result(widths: widths, kept: kept)
        }
        // One column that does not fit even at its minimum: cut to the container.
        return Result(widths: [max(0, min(widths[0], available))], kept: 1)
    }

    /// Step 3: lowers the widest flexible columns to a common level so the sum equals `space`.
    package static func level(_ widths: inout [Int], _ part: [Column], space: Int) {
        func total(at level: Int) -> Int {
            var sum = 0
            for (k, column) in part.enumerated() {
                sum += column.flexible ? max(column.minimum, min(widths[k], level)) : widths[k]
            }
            return sum
        }
        let capped = widths
        // The largest level whose total fits (the total grows with the level).
        var low = 0, high = widths.max() ?? 0
        while low < high {
            let mid = (low + high + 1) / 2
            if total(at: mid) <= space { low = mid } else { high = mid - 1 }
        }
        for (k, column) in part.enumerated() where column.flexible {
            widths[k] = max(column.minimum, min(widths[k], low))
        }
        // Hand what is left to the columns held at the level, from the left.
        var rest = space - widths.reduce(0, +)
        for (k, column) in part.enumerated() where rest > 0 && column.flexible && widths[k] == low && low < capped[k] {
            widths[k] += 1
            rest -= 1
        }
    }
}
