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

/// A regular CSV, TSV or JSON Lines file read in pieces on both cores (P1): each thread reads and
/// sizes whole pieces, then draws them, instead of one thread reading for the other. Sizing a piece
/// notes where each row's fields lie (`RowIndex`; in JSON Lines, the rows of scalars on one line),
/// so drawing takes them in place instead of reading the rows again. The output is the same, byte
/// for byte, as reading the file whole (`FilePieces` says how cuts are checked).
extension FormatRun {
    /// Sizes a file's rows in pieces. Returns nil, having read nothing, when the input is not
    /// a plain UTF-8 CSV or TSV file with a header row or a JSON Lines file, is too small to cut,
    /// or a piece meets an error, an invalid byte or a cut inside a row: the caller then reads the
    /// file whole, which says each of those exactly where it is. With `groupBy` (a CSV or TSV file's
    /// `--group-by` column) the pieces also tally their groups (`PieceGroups`); nil too when they
    /// are too many for that.
    func sizeInPieces(_ reader: RowReader, groupBy: Int? = nil) -> Sized? {
        let table = reader.table
        guard limit == Int.max, let size = options.pipeline.pieceBytes,
              let file = randomAccess(of: input), file.holdsText,
              table.stream.encoding == .utf8, table.stream.replacements == 0 else { return nil }
        switch table.choice.format {
        case .csv, .tsv:
            // Each piece sizes every column, and the first pass holds up to ~256 pieces' sizes: a
            // very wide table (2 million columns, E5) is sized in one pass instead.
            guard options.header, table.headerCount > 0, table.headerCount <= ColumnProfile.widestInPieces else { return nil }
        case .jsonl:
            guard table.keyed, table.columns.isEmpty, groupBy == nil else { return nil }
        case .json:
            return nil  // one document: its rows cannot be cut apart at line feeds
        }
        // The first row's offset. A header ended by CR LF may have left its LF unread.
        var start = Int64(table.stream.offset + table.stream.byteOrderMarkLength)
        if table.endsAfterCR {
            var byte: UInt8 = 0
            if pread(file.fd, &byte, 1, off_t(file.start + start)) == 1 && byte == 0x0A { start += 1 }
        }
        // At most about 256 pieces in the first pass, whose results wait for the last of them; the
        // drawing pass cuts at the rows the first one noted every `size` bytes.
        let firstPassSize = max(size, Int((file.identity.size - file.start - start) / 256))
        let notes = RowNotes(budget: options.pipeline.notesBudget ?? RowNotes.defaultBudget)
        guard var pieces = FilePieces.cut(file, from: start, size: firstPassSize) else { return nil }
        let grouping = groupBy.map { (index: $0, cellCap: PieceGroups.cellCap(pieces: pieces.count, budget: options.memoryLimit)) }
        guard let sized = sizeAll(&pieces, like: table, checkpointEvery: size, notes: notes, grouping: grouping) else { return nil }
        var grouped: PieceGroups?
        if groupBy != nil {
            guard let groups = PieceGroups(sized) else { return nil }
            grouped = groups
        }
        var merged = Sized(reader: reader, rows: .file, profiler: newProfiler(columns: table.columns))
        let drawing = merge(sized, cutAt: pieces, notes: notes, file: file, into: &merged)
        merged.rows = grouped.map { .pieceGroups(drawing, $0) } ?? .pieces(drawing)
        merged.pieces = pieces.count
        return merged
    }

    /// The sized pieces' columns, profiles and counts taken into `sized`, in order.
    /// - Returns: the pieces the drawing pass cuts the file in: each sized piece cut again at its
    ///   checkpoints, each with its rows' notes where it has them.
    private func merge(_ pieces: [PieceSizing.Sized], cutAt first: FilePieces, notes: RowNotes, file: RandomAccess,
                       into sized: inout Sized) -> FilePieces {
        var lines = sized.reader.table.line - 1
        var cuts: [Int64] = []
        var rowsBefore: [Int] = []
        var indexes: [RowIndex.Slice?] = []
        for (k, piece) in pieces.enumerated() {
            cuts.append(first.cuts[k])
            rowsBefore.append(sized.count)
            for checkpoint in piece.checkpoints {
                cuts.append(first.cuts[k] + checkpoint.offset)
                rowsBefore.append(sized.count + checkpoint.rows)
            }
            let columns = sized.reader.table.absorb(piece.table, lineOffset: lines)
            // The drawing pieces cut from this one take their rows' notes, if it has them (a JSON
            // Lines piece's with its columns' places in the table).
            var from = 0
            for to in piece.checkpoints.map(\.indexAt) + [piece.notes?.count ?? 0] {
                indexes.append(piece.notes.map {
                    RowIndex.Slice(notes: notes, place: $0.place, from: from, to: to, columns: piece.table.keyed ? columns : nil)
                })
                from = to
            }
            sized.profiler.sync(columns: sized.reader.table.columns)
            sized.profiler.merge(piece.profiler, into: columns)
            sized.count += piece.rows
            lines += piece.table.line - 1
        }
        cuts.append(first.cuts[first.count])
        rowsBefore.append(sized.count)
        return FilePieces(file: file, cuts: cuts, rowsBefore: rowsBefore, indexes: indexes)
    }

    /// Reads and profiles every piece on both cores. A piece that ends inside a row (a quoted field
    /// or a JSON value over lines crosses the next cut) is read again joined with the next piece,
    /// once; any other failure, or a joined piece that still ends inside a row, gives nil.
    func sizeAll(_ pieces: inout FilePieces, like table: TableInput, checkpointEvery: Int, notes: RowNotes,
                 grouping: (index: Int, cellCap: Int)?) -> [PieceSizing.Sized]? {
        let job = PieceSizing(like: table, name: input.name, measure: measure, trackWords: options.cellLines > 1, checkpointEvery: checkpointEvery,
                              notes: notes, grouping: grouping)
        let first = job.size(pieces, Array(0..<pieces.count))
        var cuts = [pieces.cuts[0]]
        var sized: [PieceSizing.Sized?] = []
        var k = 0
        while k < pieces.count {
            switch first[k] {
            case .sized(let piece):
                sized.append(piece)
                cuts.append(pieces.cuts[k + 1])
                k += 1
            case .endsInsideRow where k + 1 < pieces.count:
                // Joined with the next piece, whose start was not a row's: its notes are not used.
                if case .sized(let next) = first[k + 1], let kept = next.notes { notes.forget(kept.place) }
                sized.append(nil)
                cuts.append(pieces.cuts[k + 2])
                k += 2
            case .endsInsideRow, .failed:
                return nil
            }
        }
        guard sized.contains(where: { $0 == nil }) else { return sized.compactMap { $0 } }
        pieces = FilePieces(file: pieces.file, cuts: cuts)
        let again = sized.indices.filter { sized[$0] == nil }
        for (k, outcome) in zip(again, job.size(pieces, again)) {
            guard case .sized(let piece) = outcome else { return nil }
            sized[k] = piece
        }
        return sized.compactMap { $0 }
    }

    /// Draws the pieces the first pass sized, in order. The piece next in line is drawn straight
    /// to the output; pieces after it are drawn into memory meanwhile, by either thread, a few
    /// ahead at most and each up to a cap. A piece that outgrows the cap (very long or padded
    /// rows) is left to be drawn straight when its turn comes, so memory stays bounded (P2).
    /// `rowsInPlace`: `draw` draws a table's row (`PieceDrawing.rowsInPlace`).
    func drawPieces(_ pieces: FilePieces, _ count: inout DrawCount, _ reader: inout RowReader, renderer: any Renderer,
                    draw: @escaping TableFormatter.Draw, rowsInPlace: Bool = false) throws(OutputError) {
        let job = PieceDrawing(pieces: pieces, like: reader.table, name: input.name, renderer: renderer, draw: draw, rowsInPlace: rowsInPlace,
                               cap: options.pipeline.pieceCap ?? max(1 << 20, 2 * (options.pipeline.pieceBytes ?? 0)))
        let mine = job.continuation()
        HelperThread.start { job.help() }
        var failure: InputError?
        var drawn = count.drawn
        do {
            var next = 0
            while next < pieces.count && failure == nil {
                var done: (rows: Int, error: InputError?)
                if let piece = job.take(next) {
                    if let bytes = piece.bytes {
                        try out.write(bytes.memory.prefix(bytes.count))
                        job.recycle(bytes.memory)
                        renderer.cutCells += piece.cuts
                        done = (piece.rows, piece.error)
                    } else {
                        done = try job.drawStraight(next, to: renderer)
                    }
                } else if job.budget.wait(timeout: .now()) == .success {
                    guard let k = job.claim() else {
                        job.budget.signal()
                        job.ready.wait()  // every piece is taken: the next one is the helper's
                        continue
                    }
                    guard k == next else {
                        job.store(k, job.drawAhead(k, with: mine))
                        continue
                    }
                    done = try job.drawStraight(k, to: renderer)
                } else {
                    job.ready.wait()  // the next piece is the helper's
                    continue
                }
                job.budget.signal()
                drawn += done.rows
                failure = done.error
                next += 1
            }
        } catch {
            job.stop()
            throw error
        }
        job.stop()
        count.drawn = drawn
        count.rowsByNotes = job.rowsByNotes.current.values.reduce(0, +)
        renderer.resume(atRow: drawn)
        if let failure {
            reader.keep(failure)
            count.total = drawn
        }
    }
}

/// The sizing pass over a file's pieces: each piece read and profiled by a reader of its own.
final class PieceSizing: @unchecked Sendable {
    struct Sized {
        var table: TableInput
        var profiler: ColumnProfiler
        var rows: Int
        /// Where rows start inside the piece, about every `checkpointEvery` bytes, with the rows
        /// before each and where their notes start: the drawing pass cuts there.
        var checkpoints: [(offset: Int64, rows: Int, indexAt: Int)]
        /// Where the fields of the piece's rows lie, for the drawing pass:
        /// where the notes are kept and how long they are; nil when they could not be kept.
        var notes: (place: RowNotes.Place, count: Int)?
        /// The piece's groups (`--group-by` sized in pieces).
        var tally: GroupTally?
    }

    enum Outcome {
        case sized(Sized)
        /// The piece's rows ran on past its end: the cut after it lies inside a row.
        case endsInsideRow
        /// An error before the piece's end, or an invalid byte: the file is read whole instead.
        case failed
    }

    private let like: TableInput
    private let name: String
    private let measure: DisplayWidth
    private let trackWords: Bool
    private let checkpointEvery: Int
    private let notes: RowNotes
    private let grouping: (index: Int, cellCap: Int)?

    init(like: TableInput, name: String, measure: DisplayWidth, trackWords: Bool, checkpointEvery: Int, notes: RowNotes,
         grouping: (index: Int, cellCap: Int)? = nil) {
        self.notes = notes
        self.grouping = grouping
        self.like = like
        self.name = name
        self.measure = measure
        self.trackWords = trackWords
        self.checkpointEvery = max(1, checkpointEvery)
    }

    /// Reads and profiles the pieces `indices` on both cores; stops early after a failure.
    func size(_ pieces: FilePieces, _ indices: [Int]) -> [Outcome] {
        let outcomes = Locked([Outcome](repeating: .failed, count: indices.count))
        let failed = Locked(false)
        FilePieces.onBothCores(count: indices.count) { i in
            guard !failed.current else { return }
            let outcome = self.size(pieces, indices[i])
            if case .failed = outcome { failed.withLock { $0 = true } }
            outcomes.withLock { $0[i] = outcome }
        }
        return outcomes.current
    }

    /// Reads and profiles piece `k` (on either thread).
    private func size(_ pieces: FilePieces, _ k: Int) -> Outcome {
        // A CSV or TSV file's cells are each checked as UTF-8 where they are sized (every byte of
        // a row is in a cell but its delimiters, quotes and line break), not by the stream in a
        // pass of its own (P1: 330.3 M → 317.7 M instructions on the 100k-row CSV, 6% of the
        // 1M-row run's time); a piece with a byte that is not valid UTF-8 fails, and the file is
        // read whole, where the stream replaces it and says where (I5).
        let cellsCheckUTF8 = like.csv != nil
        var piece: TableInput
        do {
            piece = try TableInput(piece: pieces.source(k, name: name), like: like, cellsCheckUTF8: cellsCheckUTF8)
        } catch {
            return .failed
        }
        var profiler = ColumnProfiler(columns: piece.columns, measure: measure, trackWords: trackWords, checksUTF8: cellsCheckUTF8)
        var record = Record()
        var rows = 0
        let length = pieces.cuts[k + 1] - pieces.cuts[k]
        var checkpoints: [(offset: Int64, rows: Int, indexAt: Int)] = []
        var nextCheckpoint = Int64(checkpointEvery)
        var index = RowIndex()
        var tally = grouping.map { GroupTally(index: $0.index, cellCap: $0.cellCap) }
        // Rows are sized in place in the stream's buffer where the reader can (CSV, TSV), a batch
        // of them a column at a time; else read into `record`. (Both live on through the loop, so
        // their fields stay valid; the batch's until the reader next reads the stream.)
        var row = InPlaceRow()
        var batch = SizingBatch(columns: piece.columns.count, measure: measure)
        do {
            while true {
                let fields: Fields
                batch.aim(&row)
                if piece.nextInPlace(into: &row, noting: &index) {
                    fields = row.fields()
                    if fields.count == batch.columns && profiler.profiles.count == batch.columns {
                        batch.append(fields)
                        if batch.isFull { profiler.add(&batch, in: piece.stream.buffer) }
                    } else {
                        if batch.rows > 0 { profiler.add(&batch, in: piece.stream.buffer) }
                        if profiler.profiles.count != piece.columns.count { profiler.sync(columns: piece.columns) }
                        profiler.add(fields)
                    }
                } else {
                    // The reader may move the stream's bytes: the batch is sized first.
                    if batch.rows > 0 { profiler.add(&batch, in: piece.stream.buffer) }
                    guard try piece.next(into: &record, noting: &index) else { break }
                    fields = record.unsafeFields
                    if profiler.profiles.count != piece.columns.count { profiler.sync(columns: piece.columns) }
                    profiler.add(fields)
                }
                rows += 1
                if tally?.add(fields) == false { return .failed }  // too many groups
                let at = Int64(piece.stream.offset)
                // A row starts here, unless a CR's LF is still to be read.
                if at >= nextCheckpoint && at < length && !piece.endsAfterCR {
                    checkpoints.append((at, rows, index.bytes.count))
                    tally?.mark()
                    index.restart(at: Int(at))
                    nextCheckpoint = at + Int64(checkpointEvery)
                }
            }
        } catch {
            // An error once every byte of the piece is read: its last row goes on past the cut.
            return piece.stream.reachedEnd && error.kind == .malformed ? .endsInsideRow : .failed
        }
        guard piece.stream.replacements == 0, !profiler.sawInvalidUTF8 else { return .failed }
        // Kept until every piece is read: its counts and columns, not its buffer.
        piece.stream.releaseBuffer()
        let kept = index.usable ? notes.keep(index.bytes) : nil
        return .sized(Sized(table: piece, profiler: profiler, rows: rows, checkpoints: checkpoints, notes: kept.map { ($0, index.bytes.count) },
                            tally: tally))
    }
}
