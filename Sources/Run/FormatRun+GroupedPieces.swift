import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// `--group-by` (without `--sort`) of a CSV or TSV file read in pieces on both cores (W12, P1): the
/// sizing pass tallies each piece's groups (`GroupTally`: rows, exact running sums, counts at each
/// checkpoint); the drawing pass draws every piece's rows into one chunk per group, kept in memory
/// up to the budget and on disk past it (`RowNotes`); then the groups are written in the order
/// their values first appear, each chunk after the other, with the headings and footers between.
/// The output is the same, byte for byte, as grouping the rows held in memory.
final class PieceGroups: @unchecked Sendable {
    /// The most groups grouped this way; more are grouped as before (`ExternalGroups`).
    static let maxGroups = 256

    /// The most group × column sums one piece may hold, so that every piece's tally, kept until
    /// every piece is sized, stays within about a quarter of the budget (128 bytes a sum).
    static func cellCap(pieces: Int, budget: Int) -> Int { max(64, budget / 4 / max(1, pieces) / 128) }

    let index: Int
    /// Every value met and its group (`GroupTotals`: values equal as text share one).
    private let totals: GroupTotals
    /// Per group, in the order their values first appear: the value as first written, its rows,
    /// per column the sum.
    let values: [String]
    let counts: [Int]
    let sums: [[ExactDecimal.Running]]
    /// Per drawing piece (the sizing pieces cut at their checkpoints), per group: the group's rows
    /// in the pieces before it.
    let before: [[Int]]

    /// The groups of the sized pieces, in order; nil when there are more than `maxGroups`, or a
    /// sum's numbers span more digits than are kept exactly (its addends are then cut at a scale
    /// only the whole column gives, as `ExternalGroups` does).
    init?(_ sized: [PieceSizing.Sized]) {
        var tallies: [GroupTally] = []
        for piece in sized {
            guard let tally = piece.tally else { return nil }
            tallies.append(tally)
        }
        guard let totals = GroupTotals(tallies, maxGroups: Self.maxGroups) else { return nil }
        // Each checkpoint ends a drawing piece: the rows before it are the counts so far.
        var counts = [Int](repeating: 0, count: totals.values.count)
        var before: [[Int]] = []
        for (tally, groupOf) in zip(tallies, totals.groupOfPart) {
            var previous: [Int] = []
            for counted in tally.marks + [tally.counts] {
                before.append(counts)
                for (local, rows) in counted.enumerated() {
                    counts[groupOf[local]] += rows - (local < previous.count ? previous[local] : 0)
                }
                previous = counted
            }
        }
        let sums = totals.sums
        guard !sums.contains(where: { $0.contains { $0.hasSum && $0.exactValue == nil } }) else { return nil }
        index = sized.first?.tally?.index ?? 0
        self.totals = totals
        values = totals.values
        self.counts = counts
        self.sums = sums
        self.before = before
    }

    /// The group of a row; nil for a value the sizing pass did not meet (the file changed).
    func group(of fields: Fields) -> Int? { totals.group(of: fields, index: index) }
}

extension PieceGroups {
    /// Each group's sums of `columns` (nil where a column has no number, or one that is not).
    func sums(of columns: [Int]) -> [[NumberValue.Sum?]] {
        sums.map { group in
            columns.map { c in
                guard c < group.count, let value = group[c].exactValue else { return nil }
                return NumberValue.Sum(value, exact: true)
            }
        }
    }
}

/// The drawing pass of `PieceGroups`: each piece's rows drawn on either core into one chunk per
/// group, each drawn as rows `before[k][g]`… of its group (zebra stripes, a Markdown table's
/// header before a group's first row), by a continuation of the renderer as it is after a group's
/// heading.
final class GroupedPieceDrawing: @unchecked Sendable {
    struct Chunk {
        var place: RowNotes.Place
        var count: Int
    }

    /// A sink that keeps what is written, as `ByteArray` for `RowNotes`.
    final class ChunkSink: OutputSink {
        var bytes = ByteArray()
        func write(_ bytes: RawSpan) throws(OutputError) {
            bytes.withUnsafeBytes { self.bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    private let rows: PieceRows
    private let grouping: PieceGroups
    private let afterHeading: any Renderer
    private let draw: TableFormatter.Draw
    /// Whether `draw` draws a table's row (`PieceDrawing.rowsInPlace`): a plain renderer then
    /// draws the rows the notes give in place (`PlainRenderer.notedRow`), without `draw`.
    private let rowsInPlace: Bool
    private let name: String
    let store: RowNotes
    /// Per piece, per group: its chunk, if the piece has rows of the group.
    let chunks: Locked<[[Chunk?]]>
    /// Cells cut, the first error reading a piece (by piece), a chunk that could not be kept.
    let outcome = Locked((cuts: 0, errors: [Int: InputError](), lost: false))
    /// The first group's chunks go to `out`, whose group heading is written, in the pieces'
    /// order as they are drawn: each as soon as the pieces before it are written. `waiting`: those
    /// drawn before their turn, kept meanwhile as the other groups' are (`keep`; nil: none of the
    /// piece's rows, or lost); `error`: the output's, which stops the drawing; `unread`: a chunk
    /// that could not be read back, which stops the writing.
    private let first: Locked<(next: Int, waiting: [Int: Chunk?], error: OutputError?, unread: Bool)>
    private let out: OutputBuffer

    /// Tests: the order the pieces are drawn in, one at a time (`PipelineTuning.groupedDrawOrder`).
    private let order: (@Sendable (Int) -> [Int])?

    init(rows: PieceRows, grouping: PieceGroups, afterHeading: any Renderer, draw: @escaping TableFormatter.Draw, rowsInPlace: Bool = false, budget: Int,
         directory: String, out: OutputBuffer, order: (@Sendable (Int) -> [Int])? = nil) {
        self.out = out
        self.order = order
        first = Locked((0, [:], nil, false))
        self.rows = rows
        name = rows.name
        self.grouping = grouping
        self.afterHeading = afterHeading
        self.draw = draw
        self.rowsInPlace = rowsInPlace
        store = RowNotes(budget: budget, directory: directory)
        chunks = Locked(Array(repeating: Array(repeating: nil, count: grouping.counts.count), count: rows.pieces.count))
    }

    /// Draws every piece, on both cores, the first group's rows written to the output meanwhile.
    /// - Returns: false when a chunk of the first group could not be read back (the output stops
    ///   there).
    /// - Throws: the output's error, once the drawing has stopped.
    func drawAll() throws(OutputError) -> Bool {
        if let order {
            for k in order(rows.pieces.count) { drawPiece(k) }
        } else {
            FilePieces.onBothCores(count: rows.pieces.count) { k in self.drawPiece(k) }
        }
        let state = first.current
        if let error = state.error { throw error }
        return !state.unread
    }

    /// Per group, a sink and its buffer, reused from piece to piece (no fresh pages for each).
    private typealias Workspace = [(sink: ChunkSink, out: OutputBuffer)]
    private let workspaces = Locked<[Workspace]>([])

    /// A group's chunk of the piece being drawn: where it is drawn, and by what.
    private typealias Drawing = (sink: ChunkSink, out: OutputBuffer, renderer: any Renderer)

    private func drawPiece(_ k: Int) {
        guard first.current.error == nil else { return }  // the output is gone: nothing more to draw
        let workspace = workspaces.withLock { $0.popLast() } ?? grouping.counts.map { _ in
            let sink = ChunkSink()
            return (sink, OutputBuffer(sink))
        }
        defer {
            for (sink, _) in workspace { sink.bytes.removeAll(keepingCapacity: true) }
            workspaces.withLock { $0.append(workspace) }
        }
        let (drawing, read, unmet) = drawRows(k, into: workspace)
        let (made, cuts, lost) = keepChunks(k, drawing)
        chunks.withLock { $0[k] = made }
        outcome.withLock {
            $0.cuts += cuts
            $0.lost = $0.lost || lost
            if let error = read.error ?? (unmet ? InputError.fileChanged("modified", source: name) : nil) { $0.errors[k] = error }
        }
    }

    /// Draws piece `k`'s rows, each into its group's chunk in `workspace`.
    /// - Returns: per group, its chunk if the piece has rows of it; what was read; whether a row's
    ///   value was not one the sizing pass met.
    private func drawRows(_ k: Int, into workspace: Workspace) -> (drawing: [Drawing?], read: (rows: Int, error: InputError?, byNotes: Int), unmet: Bool) {
        var drawing: [Drawing?] = Array(repeating: nil, count: grouping.counts.count)
        // A plain renderer drawing rows in place, per group; held by `drawing`, so no reference
        // is counted on every row.
        var plains: [Unmanaged<PlainRenderer>?] = Array(repeating: nil, count: grouping.counts.count)
        var read: (rows: Int, error: InputError?, byNotes: Int) = (0, nil, 0)
        var unmet = false
        do {
            read = try rows.eachRow(k) { (fields) throws(OutputError) in
                guard let g = grouping.group(of: fields) else {
                    unmet = true  // not drawn into any group: said as the file changed
                    return
                }
                if let plain = plains[g] {
                    if let failure = plain._withUnsafeGuaranteedRef({ $0.drawNoted(fields) }) { throw failure }
                    return
                }
                let renderer: any Renderer
                if let drawn = drawing[g] {
                    renderer = drawn.renderer
                } else {
                    let (sink, out) = workspace[g]
                    renderer = afterHeading.continuation(into: out)
                    renderer.resume(atRow: grouping.before[k][g])
                    drawing[g] = (sink, out, renderer)
                    if rowsInPlace, let plain = renderer as? PlainRenderer {
                        plains[g] = Unmanaged.passUnretained(plain)
                        return try plain.notedRow(fields)
                    }
                }
                try draw(renderer, fields)
            }
        } catch {
            preconditionFailure("drawing into memory cannot fail: \(error)")
        }
        return (drawing, read, unmet)
    }

    /// Piece `k`'s chunk of each group drawn: the first group's written (`writeFirst`), the
    /// others kept in memory or on disk (`store`).
    /// - Returns: per group, where its chunk is; the cells cut; whether a chunk could not be kept.
    private func keepChunks(_ k: Int, _ drawing: [Drawing?]) -> (made: [Chunk?], cuts: Int, lost: Bool) {
        var cuts = 0
        var lost = false
        var made: [Chunk?] = Array(repeating: nil, count: drawing.count)
        for (g, chunk) in drawing.enumerated() {
            guard let chunk else {
                if g == 0 { writeFirst(k, nil) }
                continue
            }
            do { try chunk.out.flush() } catch { preconditionFailure("drawing into memory cannot fail: \(error)") }
            cuts += chunk.renderer.cutCells
            if g == 0 {
                if !writeFirst(k, chunk.sink) { lost = true }
                continue
            }
            made[g] = keep(chunk.sink)
            if made[g] == nil { lost = true }
        }
        return (made, cuts, lost)
    }

    /// Keeps a chunk drawn in `sink` (`store`): in memory in the block it was drawn in, the sink
    /// then going on in a new one with room for about as much (no copy as it grows), or on disk.
    /// Nil when it could not be kept.
    private func keep(_ sink: ChunkSink) -> Chunk? {
        let count = sink.bytes.count
        guard let place = store.keep(sink.bytes, compacting: false) else { return nil }
        if case .memory = place {
            sink.bytes = ByteArray()
            sink.bytes.reserve(count + count / 4)
        }
        return Chunk(place: place, count: count)
    }

    /// Writes a kept chunk, from memory or straight from the file it is kept in.
    /// - Returns: false when the file could not be read back.
    private func write(_ chunk: Chunk, to out: OutputBuffer) throws(OutputError) -> Bool {
        switch chunk.place {
        case .memory(let bytes):
            try bytes.withUnsafeBufferPointer { (bytes) throws(OutputError) in try out.write(bytes) }
            return true
        case .file(let offset):
            return try out.copy(fromFile: store.fileDescriptor, at: offset, count: chunk.count)
        }
    }

    /// Piece `k`'s chunk of the first group (nil: none of its rows), written when the pieces
    /// before it are, with any after it drawn already; else kept until then (`keep`, within the
    /// budget, and let go once written). - Returns: false when it could not be kept.
    private func writeFirst(_ k: Int, _ sink: ChunkSink?) -> Bool {
        first.withLock { state in
            guard k == state.next else {
                let kept: Chunk? = sink.flatMap(keep)
                state.waiting.updateValue(kept, forKey: k)  // nil kept too: the piece is done
                return sink == nil || kept != nil
            }
            if let sink, state.error == nil && !state.unread {
                do throws(OutputError) {
                    try sink.bytes.withUnsafeBufferPointer { (bytes) throws(OutputError) in try out.write(bytes) }
                } catch {
                    state.error = error
                }
            }
            state.next += 1
            while let after = state.waiting.removeValue(forKey: state.next) {
                if let chunk = after, state.error == nil && !state.unread {
                    do throws(OutputError) {
                        state.unread = try !write(chunk, to: out)
                    } catch {
                        state.error = error
                    }
                    store.forget(chunk.place)
                }
                state.next += 1
            }
            return true
        }
    }

    /// Writes chunk `k` of group `g` (nothing when the piece has none of its rows, or they were
    /// lost), from memory or straight from the file it is kept in.
    /// - Returns: false when the file could not be read back.
    func write(_ k: Int, _ g: Int, to out: OutputBuffer) throws(OutputError) -> Bool {
        guard let chunk = chunks.current[k][g] else { return true }
        return try write(chunk, to: out)
    }
}

extension FormatRun {
    /// `--group-by` without `--sort` on a CSV or TSV file: sized in pieces, each tallying its
    /// groups, when the file can be (`sizeInPieces`) and its groups are few enough (`PieceGroups`).
    func sizeGroupsInPieces(_ reader: RowReader) -> Sized? {
        guard options.groupBy != nil, options.sort.isEmpty, options.layout != .pages, input.isRereadable,
              let index = try? TableFormatter.Transforms(options, columns: reader.table.columns).groupIndex else { return nil }
        return sizeInPieces(reader, groupBy: index)
    }

    /// W12 for groups tallied in pieces: each group's heading, its chunks in the pieces' order,
    /// its footer.
    func drawGroupedPieces(_ pieces: FilePieces, _ grouping: PieceGroups, _ grouped: GroupedDrawing, _ count: inout DrawCount,
                           _ reader: inout RowReader) throws(OutputError) {
        guard !grouping.counts.isEmpty else { return }
        let renderer = grouped.renderer
        let directory = options.pipeline.groupChunkDirectory ?? TemporaryFiles.directory
        try grouped.heading(grouping.values[0], count: grouping.counts[0])
        let job = GroupedPieceDrawing(rows: PieceRows(pieces: pieces, like: reader.table, name: input.name), grouping: grouping,
                                      afterHeading: renderer.continuation(into: OutputBuffer(MemorySink())), draw: grouped.draw,
                                      rowsInPlace: grouped.plan.mode == .table && options.headingsEvery == nil, budget: options.memoryLimit / 2,
                                      directory: directory, out: out, order: options.pipeline.groupedDrawOrder)
        var unread = try !job.drawAll()
        let outcome = job.outcome.current
        groups: for g in grouping.counts.indices where !unread {
            if g > 0 { try grouped.heading(grouping.values[g], count: grouping.counts[g]) }
            for k in 0..<pieces.count where g > 0 {  // the first group's are written already
                // A chunk that cannot be read back ends the output here, said below.
                guard try job.write(k, g, to: out) else {
                    unread = true
                    break groups
                }
            }
            renderer.resume(atRow: grouping.counts[g])
            try grouped.footer(g)
            count.drawn += grouping.counts[g]
        }
        renderer.cutCells += outcome.cuts
        if let first = outcome.errors.min(by: { $0.key < $1.key }) {
            reader.keep(first.value)
        } else if unread {
            reader.keep(InputError(.readFailed, "cannot read back a temporary file for --group-by", source: directory))
        } else if outcome.lost {
            reader.keep(InputError(.readFailed, "cannot write a temporary file for --group-by (set TMPDIR to a larger disk, or raise --memory-limit)",
                                   source: directory))
        }
    }
}
