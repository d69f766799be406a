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
/// Filtering and searching in the view (V5): what `&` and `/` ask for, and the answers taken in.
extension ViewState {
    /// `&` text `Enter`: the rows with a shown cell containing the text, found off the key loop
    /// (`applyFiltered` takes them in); `&` `Enter` alone shows every row again at once.
    mutating func startFilter(_ text: String) {
        guard !text.isEmpty else {
            if let running, case .filter = running.work.kind { cancelWork() }
            let focused = count > 0 ? id(at: current) : nil
            filter = nil
            keepInSight(focused)
            return
        }
        var work = newWork(.filter(text: text))
        work.sources = columns.map(\.source)
        work.match = TextMatch(text)
        work.order = order
        work.orderStamp = orderStamp
        start(work)
    }

    /// A filter's answer. Rows read since it was asked for are looked at here (as rows are while
    /// they come), and the rows are listed again if the order changed meanwhile. The current row
    /// stays current if it is kept, else the next kept row after it in the view's order does.
    mutating func applyFiltered(_ work: ViewWork, ids: [Int32], data: any ViewRows) {
        guard case .filter(let text) = work.kind, let match = work.match else { return }
        let focused = count > 0 ? id(at: current) : nil
        let base = order
        var f = Filter(text: text, match: match, ids: ids, scanned: work.rows)
        if f.scanned < loaded {
            f.ids = Self.reorder(f.ids, along: nil, rows: work.rows)
            extend(&f, data: data)
            if order != nil { f.ids = Self.reorder(f.ids, along: order, rows: loaded) }
        } else if work.orderStamp != orderStamp {
            f.ids = Self.reorder(f.ids, along: order, rows: loaded)
        }
        // The rows added in the view, and the edits' order when it is the view's.
        let added = addedMatching(match, data: data).ids
        if !added.isEmpty || (order == nil && editing.edits.reorders) { f.ids = listedInView(f.ids + added) }
        filter = f
        current = focused.flatMap { nextKept(from: $0, base: base) } ?? 0
        top = max(0, current - bodyLines / 2)
    }

    /// The view row of input row `id` under the filter, or of the first kept row after it in
    /// `base` (the order before the filter; nil: input order), or the last kept row.
    func nextKept(from id: Int, base: [Int32]?) -> Int? {
        guard let filter, !filter.ids.isEmpty else { return nil }
        if let exact = row(of: id) { return exact }
        guard let base, order != nil else {
            // In input order: the first kept row number past `id`.
            var low = 0, high = filter.ids.count
            while low < high {
                let middle = (low + high) / 2
                if Int(filter.ids[middle]) < id { low = middle + 1 } else { high = middle }
            }
            return min(low, filter.ids.count - 1)
        }
        let kept = Set(filter.ids)
        guard let start = base.firstIndex(of: Int32(id)) else { return nil }
        for later in base[start...] where kept.contains(later) { return row(of: Int(later)) }
        return filter.ids.count - 1
    }

    /// Adds the rows the filter has not looked at yet, in input order (rows read while no sort
    /// is in force).
    func extend(_ f: inout Filter, data: any ViewRows) {
        let shown = columns.map(\.source)
        let match = f.match
        var ids = f.ids
        data.scan(f.scanned..<loaded) { id, fields in
            if shown.contains(where: { match.matches(fields[$0]) }) { ids.append(Int32(id)) }
            return true
        }
        f.ids = ids
        f.scanned = loaded
    }

    /// `/` text `Enter`: the matching cells found off the key loop (`applySearched` takes them
    /// in); `/` `Enter` alone clears the search.
    mutating func startSearch(_ text: String) {
        guard !text.isEmpty else {
            if let running, case .search = running.work.kind { cancelWork() }
            search = nil
            return
        }
        var work = newWork(.search(text: text))
        work.sources = columns.map(\.source)
        work.match = TextMatch(text)
        start(work)
    }

    /// A search's answer (rows read since marked here); then the first match from the focused cell.
    mutating func applySearched(_ work: ViewWork, hits: [Bool], cells: Int, data: any ViewRows) {
        guard case .search(let text) = work.kind, let match = work.match else { return }
        var s = Search(text: text, match: match, hits: hits, cells: cells)
        if work.rows < loaded { Self.mark(&s, rows: work.rows..<loaded, sources: columns.map(\.source), data: data) }
        let added = addedMatching(match, data: data)
        s.added = Set(added.ids.map(Int.init))
        s.cells += added.cells
        search = s
        findNext(forward: true, data: data, including: true)
    }

    /// Notes which rows of `rows` have a matching cell in `sources`, and how many cells match
    /// (rows read while a search is shown: a few at a time).
    static func mark(_ s: inout Search, rows: Range<Int>, sources: [Int], data: any ViewRows) {
        var hits = s.hits
        if hits.count < rows.upperBound { hits.append(contentsOf: repeatElement(false, count: rows.upperBound - hits.count)) }
        var cells = s.cells
        let match = s.match
        data.scan(rows) { id, fields in
            var n = 0
            for source in sources where match.matches(fields[source]) { n += 1 }
            if n > 0 {
                hits[id] = true
                cells += n
            }
            return true
        }
        s.hits = hits
        s.cells = cells
    }

    /// `n` / `N`: the next (or previous) matching cell after the focused one, wrapping around.
    /// - Parameter including: the focused cell itself may be the match (a new search).
    mutating func findNext(forward: Bool, data: any ViewRows, including: Bool = false) {
        guard let search, count > 0 else {
            if search == nil { message = "no search: / to search" }
            return
        }
        guard search.cells > 0 else {
            message = "no match for \(search.text)"
            return
        }
        let n = count
        for step in 0...n {
            let row = forward ? (current + step) % n : ((current - step) % n + n) % n
            let id = self.id(at: row)
            guard id >= 0 ? id < search.hits.count && search.hits[id] : search.added.contains(id) else { continue }
            let record = data.record(id)
            let matching = record.withFields { fields in
                columns.indices.filter { search.match.matches(fields[columns[$0].source]) }
            }
            let candidates: [Int]
            if step == 0 {
                candidates = forward ? matching.filter { including ? $0 >= focus : $0 > focus } : matching.filter { $0 < focus }
            } else if step == n {
                candidates = forward ? matching.filter { $0 <= focus } : matching.filter { $0 >= focus }
            } else {
                candidates = matching
            }
            if let column = forward ? candidates.first : candidates.last {
                if step > 0 && (forward ? row <= current : row >= current) { message = "search wrapped" }
                current = row
                focus = column
                scrollToFocus()
                return
            }
        }
        // None found: every match is in rows the filter hides, as the status line says.
    }
}


/// A search or filter text matched against cells: case-insensitive unless the text has a
/// capital letter (V5).
struct TextMatch {
    let text: String
    private let needle: [UInt8]
    private let caseSensitive: Bool
    private let ascii: Bool

    init(_ text: String) {
        self.text = text
        caseSensitive = text.contains { $0.isUppercase }
        ascii = text.utf8.allSatisfy { $0 < 0x80 }
        needle = Array((caseSensitive ? text : text.lowercased()).utf8)
    }

    /// Whether `cell` contains the text.
    func matches(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard cell.count >= needle.count else { return false }
        if caseSensitive || ascii {
            let fold = !caseSensitive
            let first = needle[0]
            var i = 0
            let last = cell.count - needle.count
            while i <= last {
                let b = cell[i]
                if (fold ? Self.lower(b) : b) == first {
                    var k = 1
                    while k < needle.count, (fold ? Self.lower(cell[i + k]) : cell[i + k]) == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                i += 1
            }
            return false
        }
        return String(decoding: cell, as: UTF8.self).lowercased().utf8.firstRange(of: needle) != nil
    }

    @inline(__always)
    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}
