import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// Step 1 of a run: read the rows and size them, or hold them to be sized in step 2.
extension FormatRun {
    /// A file's rows are sized on this thread while a second one reads them; a pipe's window (or
    /// every row, when all are held) is read and held, sized in step 2.
    func readAndSize(_ table: consuming TableInput) -> Sized {
        let reader = RowReader(table)
        var sized: Sized
        if twoPass, let inPieces = sizeInPieces(reader) {
            sized = inPieces  // sized on both cores, each reading whole pieces of the file
        } else if let grouped = sizeGroupsInPieces(reader) {
            sized = grouped  // grouped as it is sized, on both cores (`PieceGroups`)
        } else if twoPass {
            sized = sizeWhileReading(reader)
        } else if !options.sort.isEmpty && options.layout != .pages {
            sized = readForSort(reader)
        } else if options.groupBy != nil && options.sort.isEmpty && options.layout != .pages {
            sized = readForGroups(reader)
        } else {
            sized = hold(reader)
        }
        sized.profiler.sync(columns: sized.reader.table.columns)
        return sized
    }

    /// A file read on a second thread (`RowPipeline`) while this one sizes its rows. The reader sizes
    /// some batches itself, into its own profile, when this thread is behind; the profile takes its
    /// columns when it is first used (a row of 2 million columns should not be profiled twice over
    /// for nothing, E5).
    func sizeWhileReading(_ reader: consuming RowReader) -> Sized {
        var profiler = newProfiler(columns: reader.table.columns)
        var rows = 0
        let pipeline = RowPipeline(reader.table, tuning: options.pipeline)
        let helper = Shared(newProfiler(columns: []))
        let limit = self.limit
        pipeline.consume(maxRows: Int.max, help: { batch in
            helper.value.sync(columns: batch.columns)
            batch.forEachRow(upTo: limit) { helper.value.add($0) }
        }) { batch in
            if !batch.helped {
                profiler.sync(columns: batch.columns)
                batch.forEachRow(upTo: limit) { profiler.add($0) }
            }
            rows += batch.count
            reader.keep(batch.error)
        }
        profiler.merge(helper.value)
        reader.table = pipeline.input
        return Sized(reader: reader, rows: .file, profiler: profiler, count: rows)
    }

    /// A pipe's window, or every row when all are held. A pipe whose writer pauses for
    /// `windowPause` before the window is full is sized from the rows that came, so they show at
    /// once (`tail -f log.csv | tablefmt`, P4).
    func hold(_ reader: consuming RowReader) -> Sized {
        var profiler = newProfiler(columns: reader.table.columns)
        var held: [Record] = []
        while window.map({ held.count < $0 }) ?? true,
              window == nil || held.isEmpty || !reader.table.stream.pauses(milliseconds: InputOptions.windowPause),
              reader.next() {
            profiler.sync(columns: reader.table.columns)
            held.append(reader.record.compacted())
        }
        let count = held.count
        return Sized(reader: reader, rows: holdAll ? .all(held, typing: nil) : .window(held), profiler: profiler, count: count)
    }

    /// `--sort`: every row, held until the budget is passed, then in sorted runs on disk (P2).
    /// The sort columns are resolved once the header (or the first JSON rows) names them.
    func readForSort(_ reader: consuming RowReader) -> Sized {
        var profiler = newProfiler(columns: reader.table.columns)
        var typing = newProfiler(columns: reader.table.columns)
        var sort: ExternalSort?
        var held: [Record] = []
        var rows = 0
        while reader.next() {
            profiler.sync(columns: reader.table.columns)
            typing.sync(columns: reader.table.columns)
            typing.add(reader.record)
            rows += 1
            if sort == nil, let keys = try? TableFormatter.Transforms(options, columns: reader.table.columns).sortKeys {
                let made = ExternalSort(keys: keys, budget: options.memoryLimit)
                do {
                    for row in held { try made.add(row, numeric: typing.profiles.map(\.isNumeric)) }
                } catch {
                    reader.keep(error)
                    break
                }
                held = []
                sort = made
            }
            guard let sort else {
                held.append(reader.record.compacted())
                continue
            }
            do { try sort.add(reader.record, numeric: typing.profiles.map(\.isNumeric)) } catch {
                reader.keep(error)
                break
            }
        }
        guard let sort, sort.spilled else {
            let all = sort?.takeHeld() ?? held
            return Sized(reader: reader, rows: .all(all, typing: typing), profiler: profiler, count: rows)
        }
        do { try sort.finish(numeric: typing.profiles.map(\.isNumeric)) } catch { reader.keep(error) }
        return Sized(reader: reader, rows: .sorted(sort, typing: typing), profiler: profiler, count: rows)
    }

    /// E4: empty input prints nothing. Rows with no fields at all (JSON `{}` or `[]`) are said in
    /// a note, wrapped to the width like any other (W1, W14), rather than drawn as blank lines.
    func noteRowsWithoutFields(_ rows: Int) throws(OutputError) {
        guard rows > 0 else { return }
        let note = "(\(Wording.grouped(rows)) row\(rows == 1 ? "" : "s") with no fields)"
        for line in measure.fit(note, width: options.width ?? Int.max, maxLines: Int.max, ellipsis: .end) {
            try out.write(line.text)
            try out.newline()
        }
        try out.flush()
    }
}
