import Input
import Support
import Dispatch
import Support

/// Reads a table's rows on a second thread while the caller processes them, in order, on its own
/// (P1: parsing and drawing overlap on two cores). Used for regular files, whose rows are all
/// there: a pipe is read on the caller's thread so that its first rows are never held back (P4).
///
/// Rows travel in a ring of reused batches (no per-row allocation once the records have grown).
/// Two semaphores hand batches back and forth and order every access to them: a batch belongs to
/// the reader between `free.wait()` and `filled.signal()`, and to the caller between
/// `filled.wait()` and `free.signal()`.
///
/// Reading is the lighter half of the work, so the reader thread also helps: when the caller has
/// two or more batches waiting, the reader does the caller's work on the batch it just read
/// (`help`: size its rows, or draw them into memory) before handing it over marked `helped`, and
/// the caller only takes the result. The two cores share the work without either waiting long.
package final class RowPipeline: @unchecked Sendable {
    /// A run of consecutive rows.
    package final class Batch {
        package var records: [Record] = []
        package var count = 0
        /// The table's columns after the last row of this batch (they only grow).
        package var columns: [String] = []
        /// The batch is the last one: the input ended, the row limit was reached, or reading failed.
        package var last = false
        package var error: InputError?
        /// Rows before this batch.
        package var firstRow = 0
        /// The reader thread did the caller's work on these rows (see `help`).
        package var helped = false
        /// What `help` drew, for the caller to write; cells it cut.
        package var output: [UInt8] = []
        package var cuts = 0

        /// Calls `body` with each row's fields, in order, those before row `limit` of the table.
        /// The records are borrowed in place: a copy would retain buffers the reader thread is
        /// about to reuse, an atomic count bounced between the two cores on every row.
        package func forEachRow<E: Error>(upTo limit: Int = .max, _ body: (Fields) throws(E) -> Void) throws(E) {
            try records.withUnsafeBufferPointer { (records) throws(E) in
                for r in 0..<min(count, max(0, limit &- firstRow)) { try body(records[r].unsafeFields) }
            }
        }
    }

    /// The input; the reader's thread owns it until `consume` returns.
    private(set) var table: TableInput
    /// The input, once `consume` has returned.
    package var input: TableInput { table }
    private let ring: [Batch]
    private let batchSize: Int
    private let helpWhenWaiting: Int
    private let helpPattern: [Bool]?
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)
    /// Set by the caller when it stops early; the reader checks it before each batch. Locked: the
    /// reader may be filling a batch it already had when the caller stops.
    private let cancelled = Locked(false)
    /// Batches handed to the caller and not yet taken.
    private let waiting = Locked(0)
    /// The caller's work on a batch, for the reader thread to do when the caller is behind. It
    /// runs on the reader thread, one batch at a time; what it leaves in the batch (and in its own
    /// state) is the caller's to read after the batch, or after `consume`, returns.
    private var help: ((Batch) -> Void)?

    package init(_ table: TableInput, tuning: PipelineTuning, depth: Int = 4) {
        self.table = table
        self.batchSize = tuning.batchSize
        self.helpWhenWaiting = tuning.helpWhenWaiting
        self.helpPattern = tuning.helpPattern
        ring = (0..<depth).map { _ in Batch() }
        // Created at 0 and raised: libdispatch traps when a semaphore is freed below the value it
        // was created with, which is where `free` ends when the caller stops early (E3).
        free = DispatchSemaphore(value: 0)
        for _ in 0..<depth { free.signal() }
    }

    /// Reads up to `maxRows` rows on another thread and hands them to `body` on this one.
    /// - Parameter help: The work `body` does on a batch, done on the reader thread instead for
    ///   some batches (`body` then sees `helped` and takes the result).
    /// - Throws: what `body` throws (after stopping the reader).
    package func consume<Failure: Error>(maxRows: Int, help: ((Batch) -> Void)? = nil, _ body: (Batch) throws(Failure) -> Void) throws(Failure) {
        self.help = help
        HelperThread.start { self.produce(maxRows: maxRows) }
        var index = 0
        while true {
            filled.wait()
            waiting.withLock { $0 -= 1 }
            let batch = ring[index % ring.count]
            index += 1
            do {
                try body(batch)
            } catch {
                cancelled.withLock { $0 = true }
                free.signal()
                finished.wait()
                throw error
            }
            let last = batch.last
            free.signal()
            if last { break }
        }
        finished.wait()
    }

    private func produce(maxRows: Int) {
        // The table and each batch's records live in locals while they are filled: class
        // properties in the inner loop would cost a dynamic exclusivity check per access.
        var table = self.table
        var index = 0
        var rows = 0
        while true {
            free.wait()
            let batch = ring[index % ring.count]
            index += 1
            var records = batch.records
            batch.records = []
            var count = 0
            var last = cancelled.current
            var failure: InputError?
            while !last && count < batchSize && rows < maxRows {
                if records.count == count { records.append(Record()) }
                do {
                    if try table.next(into: &records[count]) {
                        count += 1
                        rows += 1
                    } else {
                        last = true
                    }
                } catch {
                    failure = error
                    last = true
                }
            }
            batch.records = records
            batch.firstRow = rows &- count
            batch.count = count
            batch.error = failure
            batch.last = last || rows >= maxRows
            batch.columns = table.columns
            batch.helped = false
            let behind = helpPattern.map { $0[(index &- 1) % $0.count] } ?? (waiting.current >= helpWhenWaiting)
            if let help, count > 0, behind {
                help(batch)
                batch.helped = true
            }
            let done = batch.last
            if done { self.table = table }
            waiting.withLock { $0 += 1 }
            filled.signal()
            if done { break }
        }
        finished.signal()
    }
}

/// A value a closure on the reader thread works on (`RowPipeline.consume`'s `help`). The
/// pipeline's semaphores order every access: the reader's during `consume`, the caller's after.
package final class Shared<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
