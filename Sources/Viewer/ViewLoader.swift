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
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input into a `RowSpool` on its own thread, so the view shows the first rows at once
/// and keeps counting while the person moves (V7). The rows are read exactly as the printed
/// table reads them (`TableInput`: the same sniffing, encodings, gzip, JSON columns), and every
/// row is profiled, so the view's columns are sized from every row read so far.
package final class ViewLoader: @unchecked Sendable {
    /// What has been read so far.
    package struct Progress: Sendable {
        /// Rows in the spool, readable.
        package var rows = 0
        package var columns: [String] = []
        var profiles: [ColumnProfile] = []
        /// The input ended (or the row limit was reached, or reading failed).
        package var done = false
        /// The data error that stopped reading (E2): the rows before it are there.
        package var error: InputError?
        /// Warnings about the input, once it is done.
        package var warnings: [String] = []
        /// The input names its own columns (JSON): a row's sheet is an outline (V4).
        package var keyed = false
        /// The delimited dialect the input was read in (nil: JSON): what a save under a name
        /// writes when there is no file to copy from (V10).
        var dialect: Dialect?
        /// Bumped at each publish: the view redraws when it changes.
        package var changes = 0
        /// Since when (`milliseconds()`) the reader has waited for more, every row that came
        /// read (a pipe's or `--follow`'s writer paused); nil while rows come (V9).
        package var waitingSince: Int?
        /// The rows read when the reader first waited for more: what a followed file held when
        /// it was opened (V9: those rows are not new); nil before.
        package var rowsAtFirstWait: Int?
        /// How many rows had been read when each piece of a followed file's news came (a
        /// truncation, a rotation: where the file was cut, V9), in the order told.
        package var rowsAtNews: [Int] = []
    }

    package let store: RowStore
    private let state = Locked(Progress())
    private let cancelled = Locked(false)
    /// The reading, once started.
    private var reading: Background<Void>?
    /// Called after each publish (the view's loop wakes for new rows at once, V9).
    let wake = Locked<(@Sendable () -> Void)?>(nil)

    package init(store: RowStore) { self.store = store }

    /// What has been read so far.
    package var progress: Progress { state.current }

    /// Starts reading `input` on another thread.
    package func start(_ input: any InputProvider, options: FormatOptions) {
        let box = Handed(input)
        reading = Background { [self] in load(box.value, options: options) }
    }

    /// Reads `input` on this thread (tests, and the view's own sequence when it must be exact).
    package func load(_ input: some InputProvider, options: FormatOptions) {
        load(input, options: options, inPlace: true)
    }

    /// Reads every row (up to `--limit`) into the store, profiling each.
    /// - Parameter inPlace: an uncompressed UTF-8 CSV or TSV file may be indexed where it is
    ///   (`FileRows`) rather than spooled; a replaced byte (invalid UTF-8) starts again, spooled.
    private func load(_ input: some InputProvider, options: FormatOptions, inPlace: Bool) {
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        var table: TableInput
        do {
            table = try TableInput(input, options: options.input)
        } catch {
            state.withLock { $0.error = error; $0.done = true }
            return
        }
        let keyed = table.keyed
        let direct = inPlace ? Self.fileRows(input, table) : nil
        store.use(direct)
        if direct == nil {
            // Spooled: the temporary file now, before any row is waited for, so a TMPDIR that
            // cannot take it ends the run before the view opens however slowly the rows come.
            do {
                try store.spool.prepare()
            } catch {
                state.withLock { $0.error = error; $0.done = true }
                return
            }
        }
        let bom = Int64(table.stream.byteOrderMarkLength)
        // The stream itself, not `table`: `publish` runs while `table.next` reads (a wait).
        let stream = table.stream
        let dialect = table.choice.dialect
        state.withLock { $0.keyed = keyed; $0.dialect = dialect }
        var profiler = ColumnProfiler(columns: table.columns, measure: measure)
        var columns = table.columns
        var rows = 0
        var record = Record()
        var lastPublish = Self.milliseconds()
        let limit = options.limit ?? Int.max
        var failure: InputError?
        // Where the last row read ends: blank lines after it are not its (they stay the file's
        // end when it is saved, V10).
        var rowsEnd = Int64(stream.offset) + bom
        func publish(waiting: Bool = false) {
            if let direct {
                direct.publish(end: rowsEnd)
            } else {
                do {
                    try store.spool.publish()
                } catch {
                    // Rows that could not be spooled (a full disk) are not shown.
                    failure = failure ?? error
                    return
                }
            }
            let (count, names, profiles) = (rows, columns, profiler.profiles)
            state.withLock { progress in
                progress.rows = count
                progress.columns = names
                progress.profiles = profiles
                progress.changes += 1
                progress.waitingSince = waiting ? Self.milliseconds() : nil
                if waiting && progress.rowsAtFirstWait == nil { progress.rowsAtFirstWait = count }
            }
            lastPublish = Self.milliseconds()
            wake.current?()
        }
        // A pipe's writer pausing (`tail -f`): what came is shown now (P4).
        table.stream.beforeWaiting = { publish(waiting: true) }
        // A followed file's news is told while a row is read (on this thread): the rows before
        // it are the ones already read, the file's place where it was cut (V9).
        let followed = input as? FollowedFile
        followed?.onNotice = { [state] _ in state.withLock { $0.rowsAtNews.append(rows) } }
        defer { followed?.onNotice = nil }
        while rows < limit && failure == nil && !cancelled.current {
            let start = Int64(table.stream.offset) + bom
            do {
                guard try table.next(into: &record) else { break }
            } catch {
                failure = error
                break
            }
            if direct != nil && table.stream.replacements > 0 {
                // The file's bytes are no longer the rows' bytes: read it again, spooled.
                table.stream.beforeWaiting = nil
                state.withLock { $0 = Progress() }
                load(input, options: options, inPlace: false)
                return
            }
            if table.columns.count != columns.count {
                columns = table.columns
                profiler.sync(columns: columns)
            }
            profiler.add(record)
            if let direct { direct.append(start: start) } else { store.spool.append(record) }
            rowsEnd = Int64(table.stream.offset) + bom
            rows += 1
            // The first screen as soon as it is there; then a few times a second.
            if rows == 64 || rows == 1000 || (rows & 255 == 0 && (Self.milliseconds() - lastPublish > 100 || store.spool.pendingBytes > 1 << 22)) {
                publish()
            }
        }
        table.stream.beforeWaiting = nil
        publish()
        let warnings = table.warnings
        state.withLock { progress in
            progress.error = failure
            progress.warnings = warnings
            progress.done = true
            progress.changes += 1
        }
        wake.current?()
    }

    /// The rows of `input` found again in its file, when it is a regular file of uncompressed
    /// UTF-8 CSV or TSV. A followed file's rows are spooled, as a pipe's are: a truncation or a
    /// rewrite cannot take rows the view has read (V9).
    private static func fileRows(_ input: some InputProvider, _ table: TableInput) -> FileRows? {
        guard table.stream.encoding == .utf8, table.choice.format == .csv || table.choice.format == .tsv else { return nil }
        guard let file = randomAccess(of: input), file.holdsText else { return nil }
        return FileRows(file, choice: table.choice, name: input.name, owner: input)
    }

    /// Stops reading after the current row (the thread may still be waiting on a pipe).
    package func cancel() { cancelled.withLock { $0 = true } }

    /// Waits until `rows` rows are read, the input is done, or `milliseconds` pass.
    /// - Returns: the progress then.
    package func wait(forRows rows: Int, milliseconds: Int) -> Progress {
        let deadline = Self.milliseconds() + milliseconds
        while true {
            let now = progress
            if now.done || now.rows >= rows || Self.milliseconds() >= deadline { return now }
            usleep(2_000)
        }
    }

    /// Waits for the reading thread to end, up to `milliseconds`; true when it did.
    package func join(milliseconds: Int) -> Bool {
        reading?.wait(milliseconds: milliseconds) ?? true
    }

    /// A monotonic clock in milliseconds.
    package static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }
}
