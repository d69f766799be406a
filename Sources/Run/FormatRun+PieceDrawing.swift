import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The drawing pass over a file's pieces (`FormatRun.drawPieces`).
final class PieceDrawing: @unchecked Sendable {
    struct Drawn {
        /// The piece as drawn (its first `count` bytes); nil when it outgrew the cap and is to be
        /// drawn straight.
        var bytes: (memory: ByteArray.Storage, count: Int)?
        var cuts: Int
        var rows: Int
        var error: InputError?
    }

    /// Where a piece drawn into memory would overflow its buffer of `cap` bytes: nothing is kept,
    /// `full` is set.
    final class OverflowSink: OutputSink {
        var full = false
        func write(_ bytes: RawSpan) throws(OutputError) { full = true }
    }

    /// A renderer drawing into memory, one per thread: into a buffer as large as the cap, whose
    /// memory is handed over whole when a piece is drawn (no copy).
    final class Continuation {
        let sink = OverflowSink()
        let out: OutputBuffer
        let renderer: any Renderer
        init(of renderer: any Renderer, cap: Int) {
            out = OutputBuffer(sink, capacity: cap)
            self.renderer = renderer.continuation(into: out)
        }
    }

    /// Pieces taken and not yet written: at most four are held in memory. Created at 0 and
    /// raised: libdispatch traps when a semaphore is freed below the value it was created with,
    /// which is where this one ends when the writing stops early (E3).
    let budget = DispatchSemaphore(value: 0)
    /// Signalled by the helper each time it has drawn a piece.
    let ready = DispatchSemaphore(value: 0)
    private let helperDone = DispatchSemaphore(value: 0)
    private let pieces: FilePieces
    private let like: TableInput
    private let name: String
    private let renderer: any Renderer
    private let draw: TableFormatter.Draw
    /// Whether `draw` draws a table's row (`Renderer.row`), so a plain table's rows may be drawn
    /// in place (`PlainRenderer.notedRow`), without `draw`.
    private let rowsInPlace: Bool
    private let cap: Int
    private let state: Locked<(next: Int, drawn: [Int: Drawn], stopped: Bool)>
    /// Memory of pieces written, for the next pieces to be drawn into (no new pages each time).
    private let spare = Locked<[ByteArray.Storage]>([])
    /// Rows of each piece taken by the sizing pass's notes, without the reader, as last drawn (a
    /// piece that outgrew the cap ahead is drawn again, straight).
    let rowsByNotes = Locked([Int: Int]())

    init(pieces: FilePieces, like: TableInput, name: String, renderer: any Renderer, draw: @escaping TableFormatter.Draw, rowsInPlace: Bool = false, cap: Int) {
        self.pieces = pieces
        self.like = like
        self.name = name
        self.renderer = renderer
        self.draw = draw
        self.rowsInPlace = rowsInPlace
        self.cap = cap
        state = Locked((next: 0, drawn: [:], stopped: false))
        for _ in 0..<4 { budget.signal() }
    }

    /// A continuation of the table's renderer for one thread. Made on the writing thread.
    func continuation() -> Continuation { Continuation(of: renderer, cap: cap) }

    /// The helper thread: draws the next piece ahead while the budget allows, until none is left.
    func help() {
        let mine = continuation()
        while true {
            budget.wait()
            guard let k = claim() else {
                budget.signal()
                break
            }
            store(k, drawAhead(k, with: mine))
            ready.signal()
        }
        helperDone.signal()
    }

    /// The next piece no thread has taken, taken.
    func claim() -> Int? {
        state.withLock { state in
            guard !state.stopped, state.next < pieces.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func store(_ k: Int, _ drawn: Drawn) {
        state.withLock { $0.drawn[k] = drawn }
    }

    /// Piece `k` once drawn, taken out of memory; nil while it is not drawn yet.
    func take(_ k: Int) -> Drawn? {
        state.withLock { $0.drawn.removeValue(forKey: k) }
    }

    /// Gives back a written piece's memory: kept for a piece still to be drawn ahead, else freed
    /// now, while the other thread may still be drawing, rather than all at the end of the pass.
    func recycle(_ bytes: ByteArray.Storage) {
        guard state.withLock({ !$0.stopped && $0.next < pieces.count }) else { return }
        spare.withLock { $0.append(bytes) }
    }

    /// Stops the helper after the piece it is drawing, and waits for it.
    func stop() {
        state.withLock { $0.stopped = true }
        budget.signal()  // the helper may be waiting for room
        helperDone.wait()
    }

    /// Draws piece `k` with the table's own renderer, to the output.
    /// - Returns: the rows drawn, and the error that stopped reading the piece, if any.
    func drawStraight(_ k: Int, to renderer: any Renderer) throws(OutputError) -> (rows: Int, error: InputError?) {
        renderer.resume(atRow: pieces.rowsBefore[k])
        return try eachRow(k, inPlace: inPlace(renderer)) { (row) throws(OutputError) in try draw(renderer, row) }
    }

    /// `renderer`, when it draws the rows itself, in place where it can (`PlainRenderer.notedRow`),
    /// rather than through `draw`.
    private func inPlace(_ renderer: any Renderer) -> PlainRenderer? {
        rowsInPlace ? renderer as? PlainRenderer : nil
    }

    /// Draws piece `k` into memory, as rows `rowsBefore[k]`… of the table.
    func drawAhead(_ k: Int, with mine: Continuation) -> Drawn {
        mine.renderer.resume(atRow: pieces.rowsBefore[k])
        let cutsBefore = mine.renderer.cutCells
        mine.sink.full = false
        let sink = mine.sink
        var read: (rows: Int, error: InputError?) = (0, nil)
        do {
            read = try eachRow(k, inPlace: inPlace(mine.renderer), full: sink) { (row) throws(OutputError) in
                try draw(mine.renderer, row)
                // Past the cap the rest of the piece is not drawn here.
                if sink.full { throw .closed }
            }
        } catch {
            // `.closed`: the piece outgrew the cap (memory cannot fail otherwise). What the
            // renderer still holds of the row it was drawing is dropped with the rest.
            sink.full = true
        }
        guard !sink.full else {
            mine.out.discard()
            return Drawn(bytes: nil, cuts: 0, rows: 0, error: nil)
        }
        let bytes = mine.out.exchange(spare.withLock { $0.popLast() })
        return Drawn(bytes: bytes, cuts: mine.renderer.cutCells - cutsBefore, rows: read.rows, error: read.error)
    }

    /// Hands each row of piece `k` to `body` (`PieceRows.eachRow`), noting how many the notes gave.
    private func eachRow(_ k: Int, inPlace plain: PlainRenderer?, full: OverflowSink? = nil,
                         _ body: (Fields) throws(OutputError) -> Void) throws(OutputError) -> (rows: Int, error: InputError?) {
        let read = try PieceRows(pieces: pieces, like: like, name: name).eachRow(k, inPlace: plain, full: full, body)
        rowsByNotes.withLock { $0[k] = read.byNotes }
        return (read.rows, read.error)
    }
}
