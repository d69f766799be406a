/// Turns a column name into a heading (C4): title-style capitalization, no ending
/// punctuation, and a unit written as the name's last word moved into parentheses.
public enum Heading {
    /// Words kept lower-case unless first or last (title style: `Created At`, `Name of the Item`).
    static let shortWords: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "vs"]

    /// Acronyms written in capitals.
    static let acronyms: Set<String> = [
        "id", "url", "uri", "cpu", "gpu", "ram", "api", "http", "https", "json", "csv", "tsv", "sql", "uuid", "ip",
        "os", "ui", "pdf", "html", "xml", "iso", "utc", "sku", "vat", "gdp", "usa", "uk", "eu", "eta", "faq", "kpi",
        "roi", "dns", "tcp", "udp", "ssh", "tls", "ssl", "io", "db", "qa", "hr", "pr", "ci", "cd", "ttl", "rss", "sla",
    ]

    /// Unit words recognised at the end of a name, and how the heading writes them.
    static let unitWords: [String: String] = [
        "g": "g", "kg": "kg", "mg": "mg", "lb": "lb", "lbs": "lbs", "oz": "oz",
        "mm": "mm", "cm": "cm", "m": "m", "km": "km", "mi": "mi", "ft": "ft",
        "ns": "ns", "us": "µs", "ms": "ms", "s": "s", "sec": "s", "secs": "s", "min": "min", "mins": "min",
        "h": "h", "hr": "hrs", "hrs": "hrs", "hours": "hours", "days": "days",
        "bytes": "bytes", "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB",
        "pct": "%", "percent": "%",
        "usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "chf": "CHF", "cny": "CNY", "inr": "INR", "cad": "CAD", "aud": "AUD",
        "w": "W", "kw": "kW", "kwh": "kWh", "mph": "mph", "kmh": "km/h", "c": "°C", "f": "°F",
    ]

    /// Words that, ending a name, may name a statistic of the same quantity as a sibling column's
    /// (`temp_min`, `temp_max`): then `min` is not minutes (C4).
    static let statisticWords: Set<String> = ["min", "max", "avg", "mean", "median", "std", "sum", "count", "total"]

    /// The names, among `names`, that end in a statistic word with a sibling: another name with
    /// the same words before it and another statistic word at its end (`temp_min`, `temp_max`).
    public static func statistics(among names: [String]) -> Set<String> {
        // Each name once: its stem and its statistic word, when it ends in one.
        let ends: [(name: String, stem: String, word: String)] = names.compactMap { name in
            let words = split(Substring(name)).map { $0.lowercased() }
            guard words.count >= 2, let last = words.last, statisticWords.contains(last) else { return nil }
            return (name, words.dropLast().joined(separator: " "), last)
        }
        var stems: [String: Set<String>] = [:]
        for end in ends { stems[end.stem, default: []].insert(end.word) }
        return Set(ends.filter { (stems[$0.stem]?.count ?? 0) >= 2 }.map(\.name))
    }

    /// The heading for a column name.
    /// - Parameter statistic: the name's last word is a statistic (see `statistics(among:)`), not
    ///   a unit: `temp_min` beside `temp_max` is `Temp Min`, not `Temp (min)`.
    /// - Returns: the title, and the unit taken from the name's last word (nil if none). `in`
    ///   before a unit marks it and is dropped: `weight_in_lbs` is `Weight (lbs)`.
    public static func title(_ name: String, statistic: Bool = false) -> (text: String, unit: String?) {
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
    static func split(_ name: Substring) -> [String] {
        var trimmed = name
        while let last = trimmed.last, last == ":" || last == "." || last == "?" || last == "!" || last == ";" || last == "," || last.isWhitespace {
            trimmed.removeLast()
        }
        var words: [String] = []
        var current: [Character] = []
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current.removeAll()
        }
        let chars = Array(trimmed)
        for (k, ch) in chars.enumerated() {
            if ch == "_" || ch == " " || ch == "." || ch == "\t" {
                flush()
                continue
            }
            if let previous = current.last, ch.isUppercase {
                let nextIsLower = k + 1 < chars.count && chars[k + 1].isLowercase
                // A plural acronym stays one word: URLs, IDs.
                let pluralEnd = k + 1 < chars.count && chars[k + 1] == "s" && (k + 2 == chars.count || !chars[k + 2].isLetter)
                // createdAt → created|At; HTTPServer → HTTP|Server; userID → user|ID
                if previous.isLowercase || previous.isNumber && !current.allSatisfy(\.isNumber)
                    || (previous.isUppercase && nextIsLower && current.count > 1 && !pluralEnd) {
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
        let letters = word.filter(\.isLetter)
        let hasUpper = letters.contains(where: \.isUppercase)
        let allLower = !letters.isEmpty && letters.allSatisfy(\.isLowercase)
        if hasUpper && !(letters.first?.isUppercase == true && letters.dropFirst().allSatisfy { $0.isLowercase }) {
            return word  // mixed or upper case as written: iPhone, McDonald, NAME, URLs
        }
        if acronyms.contains(lower) { return word.uppercased() }
        if !edge && shortWords.contains(lower) { return lower }
        guard allLower || hasUpper, let head = word.first else { return word }
        return head.uppercased() + word.dropFirst()
    }
}
