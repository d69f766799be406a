/// The formats tablefmt reads (I1).
public enum InputFormat: String, Sendable, CaseIterable {
    case csv, tsv, json, jsonl

    /// Parses `-i` values: `auto` is nil; `ndjson` is JSON Lines.
    public init?(name: String) {
        switch name.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        default: return nil
        }
    }

    /// The format a file name's extension names, if any.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        default: return nil
        }
    }
}

/// Guesses a format and a delimiter from the first bytes of the input.
package enum Sniffer {
    /// JSON when the first non-blank byte opens an object or array, else CSV.
    package static func format(of head: UnsafeBufferPointer<UInt8>) -> InputFormat {
        for b in head {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
            default: return .csv
            }
        }
        return .csv
    }

    /// The candidates, in order of preference when the evidence ties.
    package static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";"), UInt8(ascii: "|")]

    /// Picks the delimiter that splits the first lines most consistently (quotes respected).
    ///
    /// Each candidate is scored by how many of the first (up to 50) lines have the same field count
    /// as the most common count, counted only when that count is above one; the best score wins,
    /// the earlier candidate on a tie. A candidate that never appears scores nothing. One
    /// delimiter a line is weak evidence (`Smith; John` is a name, not two fields): a candidate
    /// whose most common count is two must split the first line in two as well.
    /// - Complexity: O(head.count × candidates).
    package static func delimiter(of head: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var best = delimiters[0]
        var bestScore = 0
        for candidate in delimiters {
            var counts: [Int] = []
            var firstLine = 0
            var fields = 1
            var inQuotes = false
            var lineHasContent = false
            var index = 0
            while index < head.count && counts.count < 50 {
                let b = head[index]
                index += 1
                if b == 0x22 { inQuotes.toggle(); lineHasContent = true; continue }
                if inQuotes { continue }
                if b == candidate { fields += 1; lineHasContent = true } else if b == 0x0A || b == 0x0D {
                    if lineHasContent {
                        counts.append(fields)
                        if counts.count == 1 { firstLine = fields }
                    }
                    fields = 1
                    lineHasContent = false
                } else {
                    lineHasContent = true
                }
            }
            // The last line counts only if the head holds the whole input (no cut line).
            if lineHasContent && index == head.count && counts.count < 50 && head.count < 1 << 16 {
                counts.append(fields)
                if counts.count == 1 { firstLine = fields }
            }
            var tally: [Int: Int] = [:]
            for c in counts where c > 1 { tally[c, default: 0] += 1 }
            guard let (modal, score) = tally.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else { continue }
            if modal == 2 && firstLine != 2 { continue }
            if score > bestScore {
                best = candidate
                bestScore = score
            }
        }
        return best
    }
}
