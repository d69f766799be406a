import Dispatch

/// Reads a table's rows on a second thread while the caller processes them, in order, on its own
/// (SPEC P1: parsing and drawing overlap on two cores). Used for regular files, whose rows are all
/// there: a pipe is read on the caller's thread so that its first rows are never held back (P4).
///
/// Rows travel in a ring of reused batches (no per-row allocation once the records have grown).
/// Two semaphores hand batches back and forth and order every access to them: a batch belongs to
/// the reader between `free.wait()` and `filled.signal()`, and to the caller between
/// `filled.wait()` and `free.signal()`.
final class RowPipeline: @unchecked Sendable {
    /// A run of consecutive rows.
    final class Batch {
        var records: [Record] = []
        var count = 0
        /// The table's columns after the last row of this batch (they only grow).
        var columns: [String] = []
        /// The batch is the last one: the input ended, the row limit was reached, or reading failed.
        var last = false
        var error: InputError?
    }

    /// The input; the reader's thread owns it until `consume` returns.
    private(set) var table: TableInput
    private let ring: [Batch]
    private let batchSize: Int
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)
    /// Set by the caller when it stops early; read by the reader after a `free.wait()`.
    private var cancelled = false

    init(_ table: TableInput, depth: Int = 4, batchSize: Int = 512) {
        self.table = table
        self.batchSize = batchSize
        ring = (0..<depth).map { _ in Batch() }
        // Created at 0 and raised: libdispatch traps when a semaphore is freed below the value it
        // was created with, which is where `free` ends when the caller stops early (E3).
        free = DispatchSemaphore(value: 0)
        for _ in 0..<depth { free.signal() }
    }

    /// Reads up to `maxRows` rows on another thread and hands them to `body` on this one.
    /// - Throws: what `body` throws (after stopping the reader).
    func consume(maxRows: Int, _ body: (Batch) throws(OutputError) -> Void) throws(OutputError) {
        DispatchQueue.global().async { self.produce(maxRows: maxRows) }
        var index = 0
        while true {
            filled.wait()
            let batch = ring[index % ring.count]
            index += 1
            do {
                try body(batch)
            } catch {
                cancelled = true
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
            var last = cancelled
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
            batch.count = count
            batch.error = failure
            batch.last = last || rows >= maxRows
            batch.columns = table.columns
            let done = batch.last
            if done { self.table = table }
            filled.signal()
            if done { break }
        }
        finished.signal()
    }
}
