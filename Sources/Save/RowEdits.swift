import Input
import Options
import Schedule
import Support
import Text
import Transform
/// The edits made to a table in the view (V10), held beside its row store and never as a copy of
/// its rows: the fields changed, by row id and field; the rows added; the rows deleted; and the
/// order of the rows as a list of pieces (runs of the input's rows, and added rows), so 1,000
/// edits to a file of 10 million rows take kilobytes. Every step can be undone and redone.
///
/// Row ids are the store's row numbers (0 is the first data row); an added row's id is negative
/// (-1, -2, …), so it never meets an input row's. A deleted row stays in the order, struck out,
/// until the table is saved (`commitDeletes`); the rows a save writes are the order's, less the
/// deleted ones.
package struct RowEdits: Sendable {
    /// A run of the input's rows, or one added row.
    package enum Piece: Equatable, Sendable {
        case rows(Range<Int>)
        case added(Int)

        package var count: Int {
            switch self {
            case .rows(let range): range.count
            case .added: 1
            }
        }
    }

    /// One step, with what undoes it.
    package enum Step: Equatable, Sendable {
        /// Field `field` of row `id` set to `new` (nil: as read), from `old`.
        case set(id: Int, field: Int, old: [UInt8]?, new: [UInt8]?)
        /// Row `id` added at position `at` of the order.
        case add(id: Int, at: Int)
        /// Rows marked deleted (`on`), or their marks taken off.
        case delete(ids: [Int], on: Bool)
        /// The row at position `from` moved to `to`.
        case move(from: Int, to: Int)
    }

    /// The order's leading pieces: input rows from `covered` on follow them, in input order.
    package private(set) var pieces: [Piece] = []
    package private(set) var covered = 0
    /// Rows in `pieces`.
    package private(set) var placed = 0
    /// Changed fields: row id → field → its bytes (UTF-8, as typed).
    package private(set) var fields: [Int: [Int: [UInt8]]] = [:]
    package private(set) var deleted = Set<Int>()
    /// Rows removed from the order by a save (deleted rows, once written without them): a sort or
    /// a filter, which looks at every row of the store, leaves them out (`ViewState.setOrder`).
    package private(set) var dropped = Set<Int>()
    package private(set) var nextAdded = -1
    package private(set) var undoStack: [Step] = []
    package private(set) var redoStack: [Step] = []
    /// The fields as last saved (or as read): what the marks and counts compare with.
    package private(set) var savedFields: [Int: [Int: [UInt8]]] = [:]
    /// The order as last saved (or as read): what the count of moved rows compares with.
    private var savedOrder = Order()
    /// Rows moved since the last save, whether or not they are back in their place.
    private var movedIDs = Set<Int>()

    /// An order's pieces and the input rows after them.
    private struct Order: Equatable {
        package var pieces: [Piece] = []
        package var covered = 0
    }

    package init() {}

    /// No edit at all (the order is the input's, nothing changed or deleted).
    package var isEmpty: Bool { !reorders && fields.isEmpty && deleted.isEmpty }

    /// Whether the order differs from the input's (rows added, moved or dropped by a save). With
    /// no pieces the order is the input rows from `covered` on: leading rows dropped when it is
    /// not 0.
    package var reorders: Bool { !pieces.isEmpty || covered > 0 }

    // MARK: - The order

    /// Rows in the order when the store holds `loaded` rows.
    package func count(loaded: Int) -> Int { placed + max(0, loaded - covered) }

    /// The row id at position `position` of the order.
    /// - Complexity: O(pieces).
    package func id(at position: Int) -> Int {
        guard position >= placed else {
            var at = 0
            for piece in pieces {
                if position < at + piece.count {
                    switch piece {
                    case .rows(let range): return range.lowerBound + (position - at)
                    case .added(let id): return id
                    }
                }
                at += piece.count
            }
            return -1
        }
        return covered + (position - placed)
    }

    /// The position of row `id` in the order, nil when it is not there.
    /// - Complexity: O(pieces).
    package func position(of id: Int) -> Int? {
        var at = 0
        for piece in pieces {
            switch piece {
            case .rows(let range) where range.contains(id): return at + (id - range.lowerBound)
            case .added(id): return at
            default: break
            }
            at += piece.count
        }
        return id >= covered ? placed + (id - covered) : nil
    }

    /// The order's runs in sequence, the input rows after the pieces up to `loaded` included.
    package func runs(loaded: Int) -> [Piece] {
        covered < loaded ? pieces + [.rows(covered..<loaded)] : pieces
    }

    /// Makes the first `count` positions explicit pieces, split so a piece starts at `count`.
    private mutating func split(at position: Int) {
        if position > placed {
            let more = position - placed
            append(.rows(covered..<(covered + more)))
            covered += more
            return
        }
        var at = 0
        for (k, piece) in pieces.enumerated() {
            if position == at { return }
            if position < at + piece.count, case .rows(let range) = piece {
                let cut = range.lowerBound + (position - at)
                pieces[k] = .rows(range.lowerBound..<cut)
                pieces.insert(.rows(cut..<range.upperBound), at: k + 1)
                return
            }
            at += piece.count
        }
    }

    private mutating func append(_ piece: Piece) {
        if case .rows(let range) = piece, case .rows(let last)? = pieces.last, last.upperBound == range.lowerBound {
            pieces[pieces.count - 1] = .rows(last.lowerBound..<range.upperBound)
        } else {
            pieces.append(piece)
        }
        placed += piece.count
    }

    /// The index in `pieces` of the piece starting at `position` (after `split(at:)`).
    private func pieceIndex(at position: Int) -> Int {
        var at = 0
        for (k, piece) in pieces.enumerated() {
            if at == position { return k }
            at += piece.count
        }
        return pieces.count
    }

    /// Puts row `id` at `position`.
    private mutating func insert(_ id: Int, at position: Int) {
        split(at: position)
        let piece: Piece = id < 0 ? .added(id) : .rows(id..<(id + 1))
        pieces.insert(piece, at: pieceIndex(at: position))
        placed += 1
        merge()
    }

    /// Takes the row at `position` out of the order. - Returns: its id.
    @discardableResult
    private mutating func remove(at position: Int) -> Int {
        let id = self.id(at: position)
        split(at: position + 1)
        split(at: position)
        pieces.remove(at: pieceIndex(at: position))
        placed -= 1
        merge()
        return id
    }

    /// Joins neighbouring runs, and a last run that reaches `covered` into the rows after it.
    private mutating func merge() {
        var joined: [Piece] = []
        for piece in pieces where piece.count > 0 {
            if case .rows(let range) = piece, case .rows(let last)? = joined.last, last.upperBound == range.lowerBound {
                joined[joined.count - 1] = .rows(last.lowerBound..<range.upperBound)
            } else {
                joined.append(piece)
            }
        }
        // The last run joins the rows after the pieces when no earlier piece holds a row past its start.
        if case .rows(let last)? = joined.last, last.upperBound == covered,
           !joined.dropLast().contains(where: { if case .rows(let r) = $0 { r.upperBound > last.lowerBound } else { false } }) {
            joined.removeLast()
            covered = last.lowerBound
            placed -= last.count
        }
        pieces = joined
    }

    // MARK: - Fields

    /// Row `id`'s field `field` as changed, nil when it is as read.
    package func field(_ id: Int, _ field: Int) -> [UInt8]? { fields[id]?[field] }

    /// Whether row `id` has a field changed since the last save (an added row: since added).
    package func isChanged(_ id: Int) -> Bool { (fields[id] ?? [:]) != (savedFields[id] ?? [:]) }

    /// Whether row `id` was added since the last save.
    package func isAdded(_ id: Int) -> Bool { id < 0 && savedFields[id] == nil }

    // MARK: - Steps

    /// Sets field `field` of row `id` to `value` (as typed; nil: as read, the value typed being the
    /// one read, so that a field changed and changed back is not a change).
    package mutating func set(_ id: Int, field: Int, to value: [UInt8]?) {
        let old = self.field(id, field)
        guard old != value else { return }
        record(.set(id: id, field: field, old: old, new: value))
    }

    /// Adds an empty row at `position`. - Returns: its id.
    package mutating func add(at position: Int) -> Int {
        let id = nextAdded
        nextAdded -= 1
        record(.add(id: id, at: position))
        return id
    }

    /// Marks `ids` deleted, or (`on` false) takes the marks off.
    package mutating func delete(_ ids: [Int], on: Bool = true) {
        let changing = ids.filter { deleted.contains($0) != on }
        guard !changing.isEmpty else { return }
        record(.delete(ids: changing, on: on))
    }

    /// Moves the row at position `from` to position `to`.
    package mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        record(.move(from: from, to: to))
    }

    /// Whether a step can be undone, or redone.
    package var canUndo: Bool { !undoStack.isEmpty }
    package var canRedo: Bool { !redoStack.isEmpty }

    /// Undoes the last step. - Returns: it, nil when there was none.
    @discardableResult
    package mutating func undo() -> Step? {
        guard let step = undoStack.popLast() else { return nil }
        apply(step, forward: false)
        redoStack.append(step)
        return step
    }

    /// Redoes the last step undone. - Returns: it, nil when there was none.
    @discardableResult
    package mutating func redo() -> Step? {
        guard let step = redoStack.popLast() else { return nil }
        apply(step, forward: true)
        undoStack.append(step)
        return step
    }

    private mutating func record(_ step: Step) {
        apply(step, forward: true)
        undoStack.append(step)
        redoStack.removeAll()
    }

    private mutating func apply(_ step: Step, forward: Bool) {
        switch step {
        case .set(let id, let field, let old, let new):
            let value = forward ? new : old
            var row = fields[id] ?? [:]
            row[field] = value
            fields[id] = row.isEmpty && id >= 0 ? nil : row
        case .add(let id, let at):
            if forward {
                insert(id, at: at)
                if fields[id] == nil { fields[id] = [:] }
            } else {
                remove(at: at)
                fields[id] = nil
            }
        case .delete(let ids, let on):
            for id in ids { if on == forward { deleted.insert(id) } else { deleted.remove(id) } }
        case .move(let from, let to):
            let (a, b) = forward ? (from, to) : (to, from)
            let id = remove(at: a)
            insert(id, at: b)
            movedIDs.insert(id)
        }
    }

    // MARK: - Counts and saving

    /// What the status line counts (V10).
    package struct Counts: Equatable {
        package var changed = 0, added = 0, deleted = 0, moved = 0
        package init() {}
        package var unsaved: Bool { changed + added + deleted + moved > 0 }
    }

    package var counts: Counts {
        var c = Counts()
        for id in Set(fields.keys).union(savedFields.keys) {
            if isAdded(id) { if fields[id] != nil { c.added += 1 } } else if isChanged(id) { c.changed += 1 }
        }
        c.deleted = deleted.count
        c.moved = movedIDs.count(where: { movedSinceSave($0) })
        return c
    }

    /// Whether row `id` stands elsewhere than in the order as saved, among the rows that order
    /// holds (rows added since are left out of the count: they move nothing else). A row moved and
    /// moved back (`J` then `K`) is where it was.
    private func movedSinceSave(_ id: Int) -> Bool {
        guard !isAdded(id) else { return false }
        let now = Order(pieces: pieces, covered: covered)
        if now == savedOrder { return false }
        return rank(of: id, in: now) != rank(of: id, in: savedOrder)
    }

    /// Row `id`'s place in `order`, counting only rows the saved order holds; nil when absent.
    private func rank(of id: Int, in order: Order) -> Int? {
        var at = 0
        for piece in order.pieces {
            switch piece {
            case .rows(let range):
                if range.contains(id) { return at + (id - range.lowerBound) }
                at += range.count
            case .added(let added):
                if added == id { return at }
                if !isAdded(added) { at += 1 }
            }
        }
        return id >= order.covered ? at + (id - order.covered) : nil
    }

    /// The table was saved: the deleted rows leave the order, the marks start again from what
    /// was written, and the undo history with them.
    /// - Returns: the ids that left the order.
    package mutating func commitDeletes(loaded: Int) -> [Int] {
        let gone = deleted.sorted()
        for id in gone {
            if let at = position(of: id) { remove(at: at) }
            if id >= 0 { dropped.insert(id) }
        }
        deleted.removeAll()
        savedFields = fields
        savedOrder = Order(pieces: pieces, covered: covered)
        movedIDs.removeAll()
        undoStack.removeAll()
        redoStack.removeAll()
        return gone
    }
}
