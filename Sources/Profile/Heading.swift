import Input
import Text

/// Turns a column name into a heading (C4): title-style capitalization, no ending
/// punctuation, and a unit written as the name's last word moved into parentheses.
public enum Heading {
    /// Words kept lower-case unless first or last (title style: `Created At`, `Name of the Item`).
    package static let shortWords: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "vs"]

    /// Acronyms written in capitals.
    package static let acronyms: Set<String> = [
        "id", "url", "uri", "cpu", "gpu", "ram", "api", "http", "https", "json", "csv", "tsv", "sql", "uuid", "ip",
        "os", "ui", "pdf", "html", "xml", "iso", "utc", "sku", "vat", "gdp", "usa", "uk", "eu", "eta", "faq", "kpi",
        "roi", "dns", "tcp", "udp", "ssh", "tls", "ssl", "io", "db", "qa", "hr", "pr", "ci", "cd", "ttl", "rss", "sla",
    ]

    /// Unit words recognised at the end of a name, and how the heading writes them.
    package static let unitWords: [String: String] = [
        "g": "g", "kg": "kg", "mg": "mg", "lb": "lb", "lbs": "lbs", "oz": "oz",
        "mm": "mm", "cm": "cm", "m": "m", "km": "km", "mi": "mi", "ft": "ft",
        "ns": "ns", "us": "µs", "ms": "ms", "s": "s", "sec": "s", "secs": "s", "min": "min", "mins": "min",
        "h": "h", "hr": "hrs", "hrs": "hrs", "hours": "hours", "days": "days",
        "bytes": "bytes", "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB",
        "pct": "%", "percent": "%",
        "usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "chf": "CHF", "cny": "CNY", "inr": "INR", "cad": "CAD", "aud": "AUD",
        "w": "W", "kw": "kW", "kwh": "kWh", "mph": "mph", "kmh": "km/h", "c": "°C", "f": "°F",
    ]

    /// The longest name, in UTF-8 bytes, that is made a title (C4). A longer one is not a name but
    /// data that came first (a one-line export, a minified document read as CSV): it is shown as
    /// written, so its heading costs what a value of its length costs, not a title-casing of
    /// megabytes (E5).
    public static let longestTitled = 1024

    /// Words that, ending a name, may name a statistic of the same quantity as a sibling column's
    /// (`temp_min`, `temp_max`): then `min` is not minutes (C4).
    package static let statisticWords: Set<String> = ["min", "max", "avg", "mean", "median", "std", "sum", "count", "total"]

    /// The names, among `names`, that end in a statistic word with a sibling: another name with
    /// the same words before it and another statistic word at its end (`temp_min`, `temp_max`).
    public static func statistics(among names: [String]) -> Set<String> {
        // A name's stem and statistic word, when it ends in one; found again in the second pass
        // rather than kept for every name (a table may have millions, E5).
        func end(_ name: String) -> (stem: String, word: String)? {
            guard name.utf8.count <= longestTitled, mayEndInStatistic(name) else { return nil }
            let words = split(Substring(name)).map { $0.lowercased() }
            guard words.count >= 2, let last = words.last, statisticWords.contains(last) else { return nil }
            return (words.dropLast().joined(separator: " "), last)
        }
        // The statistic words each stem ends in, one bit a word.
        var stems: [String: UInt16] = [:]
        for name in names {
            guard let (stem, word) = end(name), let bit = statisticBits[word] else { continue }
            stems[stem, default: 0] |= bit
        }
        return Set(names.filter { name in end(name).map { (stems[$0.stem] ?? 0).nonzeroBitCount >= 2 } ?? false })
    }

    /// A bit for each statistic word.
    static let statisticBits: [String: UInt16] = Dictionary(uniqueKeysWithValues: statisticWords.sorted().enumerated().map { ($1, UInt16(1) << $0) })

    /// Whether the name, without its ending punctuation, ends in the letters of a statistic word:
    /// a look at its last characters that spares splitting every name of a wide table.
    static func mayEndInStatistic(_ name: String) -> Bool {
        var end = name.endIndex
        // What `split` drops at the end: ending punctuation, then separators (`temp_min_`).
        while end > name.startIndex, isEnding(name[name.index(before: end)]) || isSeparator(name[name.index(before: end)]) {
            end = name.index(before: end)
        }
        let tail = name[..<end].suffix(6).lowercased()
        return statisticWords.contains { tail.hasSuffix($0) }
    }

    /// What `split` splits words at.
    package static func isSeparator(_ ch: Character) -> Bool { ch == "_" || ch == " " || ch == "." || ch == "\t" }

    /// Punctuation and space that `split` drops from a name's end.
    static func isEnding(_ ch: Character) -> Bool {
        ch == ":" || ch == "." || ch == "?" || ch == "!" || ch == ";" || ch == "," || ch.isSpaceFast
    }

    /// The heading for a column name.
    /// - Parameter statistic: the name's last word is a statistic (see `statistics(among:)`), not
    ///   a unit: `temp_min` beside `temp_max` is `Temp Min`, not `Temp (min)`.
    /// - Returns: the title, and the unit taken from the name's last word (nil if none). `in`
    ///   before a unit marks it and is dropped: `weight_in_lbs` is `Weight (lbs)`. A name longer
    ///   than `longestTitled` bytes is returned as written, with no unit.
    public static func title(_ name: String, statistic: Bool = false) -> (text: String, unit: String?) {
        guard name.utf8.count <= longestTitled else { return (name, nil) }
        var body = Substring(name)
        // A unit the name already gives in parentheses stays as written.
        var parenthesized = ""
        if body.hasSuffix(")"), let open = body.lastIndex(of: "(") {
            parenthesized = String(body[open...])
            body = body[..<open]
        }
        var words = split(body)
        var unit: String?
        if parenthesized.isEmpty, !statistic, words.count >= 2, let last = words.last, let canonical = unitWords[last.lowercased()] {
            unit = canonical
            words.removeLast()
            if words.count >= 2, words.last?.lowercased() == "in" { words.removeLast() }
        }
        var out: [String] = []
        for (k, word) in words.enumerated() {
            out.append(capitalize(word, edge: k == 0 || k == words.count - 1))
        }
        var text = out.joined(separator: " ")
        if !parenthesized.isEmpty { text += (text.isEmpty ? "" : " ") + parenthesized }
        return (text.isEmpty ? name : text, unit)
    }

    /// Splits a name into words: at `_`, spaces, `.`, and camel-case boundaries (`createdAt`,
    /// `userID`, `HTTPServer`). Ending punctuation is dropped.
    package static func split(_ name: Substring) -> [String] {
        var trimmed = name
        while let last = trimmed.last, isEnding(last) { trimmed.removeLast() }
        var words: [String] = []
        var current: [Character] = []
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current.removeAll()
        }
        let chars = Array(trimmed)
        for (k, ch) in chars.enumerated() {
            if isSeparator(ch) {
                flush()
                continue
            }
            if let previous = current.last, ch.isUpperFast {
                let nextIsLower = k + 1 < chars.count && chars[k + 1].isLowerFast
                // A plural acronym stays one word: URLs, IDs.
                let pluralEnd = k + 1 < chars.count && chars[k + 1] == "s" && (k + 2 == chars.count || !chars[k + 2].isLetterFast)
                // createdAt → created|At; HTTPServer → HTTP|Server; userID → user|ID
                if previous.isLowerFast || previous.isNumberFast && !current.allSatisfy(\.isNumberFast)
                    || (previous.isUpperFast && nextIsLower && current.count > 1 && !pluralEnd) {
                    flush()
                }
            }
            current.append(ch)
        }
        flush()
        return words
    }

    /// Title style for one word; `edge` is the first or last word, which is never lower-cased.
    static func capitalize(_ word: String, edge: Bool) -> String {
        let lower = word.lowercased()
        let letters = word.filter(\.isLetterFast)
        let hasUpper = letters.contains(where: \.isUpperFast)
        let allLower = !letters.isEmpty && letters.allSatisfy(\.isLowerFast)
        if hasUpper && !(letters.first?.isUpperFast == true && letters.dropFirst().allSatisfy { $0.isLowerFast }) {
            return word  // mixed or upper case as written: iPhone, McDonald, NAME, URLs
        }
        if acronyms.contains(lower) { return word.uppercased() }
        if !edge && shortWords.contains(lower) { return lower }
        guard allLower || hasUpper, let head = word.first else { return word }
        return head.uppercased() + word.dropFirst()
    }
}

/// Letter classes with an ASCII shortcut: most names are ASCII, and each of Unicode's properties
/// is a table look-up (a table of 2 million columns is 2 million names to title, E5). Outside
/// ASCII they are the standard library's.
extension Character {
    var isUpperFast: Bool { if let a = asciiValue { return a &- 0x41 < 26 } else { return isUppercase } }
    var isLowerFast: Bool { if let a = asciiValue { return a &- 0x61 < 26 } else { return isLowercase } }
    var isLetterFast: Bool { if let a = asciiValue { return (a | 0x20) &- 0x61 < 26 } else { return isLetter } }
    var isNumberFast: Bool { if let a = asciiValue { return a &- 0x30 < 10 } else { return isNumber } }
    var isSpaceFast: Bool { if let a = asciiValue { return a == 0x20 || a &- 0x09 < 5 } else { return isWhitespace } }
}
