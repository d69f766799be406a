import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// The rows of one piece of a file, for a drawing pass (`PieceDrawing`, `GroupedPieceDrawing`):
/// taken from the first pass's notes where it kept them, else read again.
struct PieceRows {
    let pieces: FilePieces
    let like: TableInput
    let name: String

    /// Reads piece `k` (its rows, as many as the first pass counted) and hands each to `body`: by
    /// the first pass's notes where it has them (each row's fields in place, without the reader;
    /// a row the notes leave to it, by the reader), else by the reader. With `plain`, the rows the
    /// notes give are drawn by it in place (`PlainRenderer.notedRow`) instead, and after each the
    /// piece ends with `.closed` once `full` has been written to (a piece drawn ahead past its cap).
    func eachRow(_ k: Int, inPlace plain: PlainRenderer? = nil, full: PieceDrawing.OverflowSink? = nil,
                 _ body: (Fields) throws(OutputError) -> Void) throws(OutputError) -> (rows: Int, error: InputError?, byNotes: Int) {
        let expected = pieces.rowsBefore[k + 1] - pieces.rowsBefore[k]
        var rows = 0
        var piece: TableInput
        do {
            piece = try TableInput(piece: pieces.source(k, name: name), like: like)
        } catch {
            return (0, error, 0)
        }
        var record = Record()
        var notes = (k < pieces.indexes.count ? pieces.indexes[k] : nil).flatMap {
            RowIndex.Reader($0, dialect: piece.choice.dialect ?? .csv(), sourceName: name, columns: piece.columns.count)
        }
        var byNotes = 0
        // Held by the caller: no reference counted on every row.
        let inPlace = plain.map { Unmanaged.passUnretained($0) }
        rowsLoop: while rows < expected {
            var step = RowIndex.Step.readAgain
            do throws(InputError) {
                if let next = try notes?.next(from: piece.stream) { step = next }
                switch step {
                case .fields: break
                case .readAgain:
                    let more = try notes == nil ? piece.next(into: &record) : piece.nextReadAgain(into: &record)
                    guard more else { break rowsLoop }
                case .end:
                    // The notes end before the rows the first pass counted: not as it was read.
                    throw InputError.fileChanged("modified", source: name)
                }
            } catch {
                return (rows, error, byNotes)
            }
            if case .fields(let fields) = step {
                byNotes += 1
                if let inPlace {
                    if let failure = inPlace._withUnsafeGuaranteedRef({ $0.drawNoted(fields) }) { throw failure }
                    if let full, full.full { throw .closed }
                } else {
                    try body(fields)
                }
            } else {
                try record.withFields(body)
            }
            rows += 1
        }
        return (rows, nil, byNotes)
    }
}
