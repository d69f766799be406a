import Input
import Support
/// The row pipeline's settings (RowPipeline): rows per batch, and how many batches must be
/// waiting for the caller before the reader thread does the caller's work on the next one itself.
package struct PipelineTuning: Sendable {
    package var batchSize = 512
    package var helpWhenWaiting = 2
    /// Tests: which batches the reader thread does the work on, whatever the timing (batch `k`
    /// when `helpPattern[k % count]`).
    package var helpPattern: [Bool]?
    /// A regular CSV or TSV file is read in pieces of about this many bytes on both cores (nil:
    /// read whole, one thread reading for the other).
    package var pieceBytes: Int? = 1 << 20
    /// The most bytes of output a piece drawn ahead may hold in memory (nil: twice `pieceBytes`,
    /// at least 1 MiB); a piece past it is drawn straight to the output in its turn.
    package var pieceCap: Int?
    /// The most bytes of the sizing pass's notes of where fields lie held in memory; past it they
    /// go to a temporary file (nil: `RowNotes.defaultBudget`).
    package var notesBudget: Int?
    /// Tests: `--group-by` in pieces draws its pieces one at a time in this order (given their
    /// count) instead of on both cores as they come, so that pieces finish out of turn whatever
    /// the timing.
    package var groupedDrawOrder: (@Sendable (Int) -> [Int])?
    /// Tests: where `--group-by` in pieces keeps the chunks it holds on disk (nil:
    /// `TemporaryFiles.directory`), so that a test can find this run's files and no other's.
    package var groupChunkDirectory: String?

    package init(batchSize: Int = 512, helpPattern: [Bool]? = nil) {
        self.batchSize = batchSize
        self.helpPattern = helpPattern
    }
}
