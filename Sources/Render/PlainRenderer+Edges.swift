import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// What a plain table draws around its cells on every line, made once.
extension PlainRenderer {
    /// A bordered style's left border, column separator and right border as `styled(_, dim)`
    /// writes them, as bytes made once: they are written on every line, the separator between
    /// every two cells.
    package final class Edges {
        package let left: UnsafeMutableBufferPointer<UInt8>
        package let separator: UnsafeMutableBufferPointer<UInt8>
        package let right: UnsafeMutableBufferPointer<UInt8>
        /// What ends a line of cells, its right border to its line break (`lineEnd`): the right
        /// border, the reset (ANSI) and the line feed.
        package let end: UnsafeMutableBufferPointer<UInt8>

        package init(_ style: TableStyle, ansi: Bool) {
            func shown(_ text: String) -> String {
                ansi && !text.isEmpty ? PlainRenderer.dim + text + PlainRenderer.normal : text
            }
            func bytes(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
                _ = buffer.initialize(from: text.utf8)
                return buffer
            }
            left = bytes(shown(style.left))
            separator = bytes(shown(style.separator))
            right = bytes(shown(style.right))
            end = bytes(shown(style.right) + (ansi ? PlainRenderer.reset : "") + "\n")
        }

        deinit {
            left.deallocate()
            separator.deallocate()
            right.deallocate()
            end.deallocate()
        }
    }

    /// What the row loop needs of each column (`CellSlot`), with what comes before its cell.
    package static func slots(_ columns: [ColumnLayout], gap: Int, bordered: Bool) -> [CellSlot] {
        var slots = columns.map(CellSlot.init)
        for k in slots.indices.dropFirst() { slots[k].before = bordered ? -1 : gap }
        return slots
    }

    /// `slots` copied into memory the caller frees.
    package static func copy(_ slots: [CellSlot]) -> UnsafeMutableBufferPointer<CellSlot> {
        let memory = UnsafeMutableBufferPointer<CellSlot>.allocate(capacity: slots.count)
        _ = memory.initialize(from: slots)
        return memory
    }
}
