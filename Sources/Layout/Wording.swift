import Options
import Profile
import Text
import Transform

/// The words tablefmt writes itself around a table: the note naming columns left out (W5), a
/// group's footer sum (W12), counts with thousands separators.
package enum Wording {
    /// A group total as its footer shows it: `≈` before one that is rounded (W12).
    package static func footerText(_ sum: NumberValue.Sum) -> String { sum.exact ? sum.text : "≈" + sum.text }

    /// How many of the columns left out the note names (W5).
    package static let omittedNamed = 50

    /// W5: `3 more columns: F, G, H`; past 50 names, the first 50 and how many more (`beyond`:
    /// columns left out past the names given).
    package static func omissionNote(_ omitted: [String], beyond: Int = 0) -> String {
        let n = omitted.count + beyond
        let named = min(n, omittedNamed)
        let names = omitted.prefix(named).joined(separator: ", ") + (n > named ? ", and \(grouped(n - named)) more" : "")
        return "\(grouped(n)) more column\(n == 1 ? "" : "s"): \(names)"
    }

    /// 1234567 → "1,234,567" (a count tablefmt writes itself, not a cell).
    package static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (k, ch) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }

    /// A group's heading line (W12): `Region: EMEA (1,234 rows)`, the count written as every
    /// count tablefmt writes (`grouped`), in print, in Markdown and in the view.
    package static func groupHeading(_ label: String, value: String, count: Int) -> String {
        "\(label): \(value.isEmpty ? "(empty)" : value) (\(Wording.grouped(count)) row\(count == 1 ? "" : "s"))"
    }
}
