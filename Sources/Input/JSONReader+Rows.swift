/// How `JSONReader` turns values into rows: flattened object members, positional array elements,
/// scalars in `Value`, nested values as compact JSON or joined scalars, and per-row cell slots.
extension JSONReader {
    // MARK: - Values and frames

    /// Counts a value that starts in the innermost frame, and starts a row when it is a row value.
    @inline(__always)
    mutating func beginValue() {
        let last = frames.count &- 1
        guard last >= 0 else {
            startRow()
            return
        }
        switch frames[last].role {
        case .document:
            frames[last].count &+= 1
            startRow()
        case .array:
            frames[last].count &+= 1
        case .captureArray:
            frames[last].count &+= 1
            if frames[last].count > 1 { compact.append(UInt8(ascii: ",")) }
        case .object, .captureObject:
            break  // the key counted the member
        }
    }

    /// Counts a member whose key starts in the innermost object.
    @inline(__always)
    mutating func beginKey() {
        let last = frames.count &- 1
        frames[last].count &+= 1
        if frames[last].role == .captureObject && frames[last].count > 1 { compact.append(UInt8(ascii: ",")) }
    }

    /// Opens an array or object, choosing its role from where it is.
    mutating func openContainer(isObject: Bool) {
        let parent = frames.count &- 1
        if capture >= 0 {
            if parent == capture && frames[parent].role == .captureArray { joinable = false }
            compact.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            frames.append(Frame(role: isObject ? .captureObject : .captureArray))
            return
        }
        let parentRole = parent >= 0 ? frames[parent].role : nil
        switch parentRole {
        case nil, .document:
            if isObject {
                frames.append(Frame(role: .object))
            } else {
                frames.append(Frame(role: parentRole == nil && !lines ? .document : .array))
            }
        case .object:
            if isObject {
                frames.append(Frame(role: .object, node: currentNode))
            } else {
                startCapture(node: currentNode, isObject: false)
            }
        case .array:
            startCapture(node: positionalNode(frames[parent].count &- 1), isObject: isObject)
        case .captureObject, .captureArray:
            break  // unreachable: capture >= 0 then
        }
    }

    /// Starts writing a nested value as compact JSON (and, for an array, joined scalars).
    mutating func startCapture(node: Int, isObject: Bool) {
        capture = frames.count
        captureNode = node
        joinable = !isObject
        compact.removeAll()
        joined.removeAll()
        compact.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(role: isObject ? .captureObject : .captureArray))
    }

    /// Closes the innermost array or object.
    mutating func endContainer() {
        guard let frame = frames.popLast() else { return }
        switch frame.role {
        case .captureObject, .captureArray:
            compact.append(frame.role == .captureObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            if frames.count == capture {
                capture = -1
                let useJoined = frame.role == .captureArray && joinable && frame.count > 0
                let start = rowBytes.count
                rowBytes.append(useJoined ? joined : compact)
                finishCell(captureNode, from: start)
            }
        case .object:
            if frame.count == 0 && frame.node >= 0 {
                let start = rowBytes.count
                rowBytes.append(UInt8(ascii: "{"))
                rowBytes.append(UInt8(ascii: "}"))
                finishCell(frame.node, from: start)
            }
        case .array, .document:
            break
        }
        valueCompleted(wasDocument: frame.role == .document)
    }

    /// A string, number or literal has ended: it goes to its cell, or into the compact JSON.
    /// - Complexity: O(length of the value).
    mutating func scalarCompleted(_ kind: Scalar) {
        if capture >= 0 {
            appendCompact(kind)
            let last = frames.count &- 1
            if last == capture && frames[last].role == .captureArray {
                if frames[last].count > 1 {
                    joined.append(UInt8(ascii: ","))
                    joined.append(UInt8(ascii: " "))
                }
                if kind == .string && Self.isAmbiguousInList(text.bytes) {
                    Self.appendQuoted(text, to: joined)
                } else if kind == .string || kind == .number {
                    joined.append(text)
                } else {
                    joined.append(kind.wordBytes)
                }
            }
        } else {
            let node: Int
            let last = frames.count &- 1
            if last >= 0 && frames[last].role != .document {
                node = frames[last].role == .object ? currentNode : positionalNode(frames[last].count &- 1)
            } else {
                node = valueColumnNode()
            }
            let start = rowBytes.count
            if kind == .string || kind == .number {
                rowBytes.append(text)
            } else if kind != .null {
                rowBytes.append(kind.wordBytes)
            }
            finishCell(node, from: start)
        }
        valueCompleted(wasDocument: false)
    }

    /// Appends a scalar to the compact JSON being captured.
    mutating func appendCompact(_ kind: Scalar) {
        switch kind {
        case .string: Self.appendQuoted(text, to: compact)
        case .number: compact.append(text)
        case .true, .false, .null: compact.append(kind.wordBytes)
        }
    }

    /// An object key has ended: finds the member's node (or writes the key into compact JSON).
    /// A key already seen in this object clears what its earlier value wrote.
    /// - Complexity: O(key length) on average.
    mutating func keyCompleted() {
        state = .colon
        if capture >= 0 {
            Self.appendQuoted(text, to: compact)
            compact.append(UInt8(ascii: ":"))
            return
        }
        rowKeyBytes &+= text.count
        let node = table.node(parent: frames[frames.count &- 1].node, key: text.bytes)
        if table.stamps[node] == rowStamp { noteDuplicate(node) }
        table.stamps[node] = rowStamp
        currentNode = node
    }

    /// A value has ended: a row is ready when it was a row value.
    @inline(__always)
    mutating func valueCompleted(wasDocument: Bool) {
        state = .afterValue
        if !frames.isEmpty {
            if frames[frames.count &- 1].role == .document { rowReady = true }
        } else {
            topValues &+= 1
            lastValueLine = line
            undecided = false
            if !wasDocument { rowReady = true }
        }
    }

    // MARK: - Cells and columns

    /// Starts a new row: a fresh stamp makes every slot empty.
    mutating func startRow() {
        rowStamp &+= 1
        rowBytes.removeAll()
        rowLine = line
        rowCells = 0
        rowKeyBytes = 0
    }

    /// Records `rowBytes[start...]` as the cell of `node`'s column in this row (replacing an
    /// earlier one), making the column when it is new.
    /// - Complexity: O(1), plus O(key path) when the column is new.
    mutating func finishCell(_ node: Int, from start: Int) {
        var column = table.nodeColumn[node]
        if column < 0 {
            let (found, isNew) = table.column(of: node)
            column = found
            if isNew { slots.append(Slot()) }
        }
        slots[column] = Slot(start: start, end: rowBytes.count, stamp: rowStamp, node: node)
        rowCells &+= 1
    }

    /// A key seen again in the same object: the earlier value's cells are cleared (the last value
    /// wins) and the warning counts it.
    mutating func noteDuplicate(_ node: Int) {
        clearCells(under: node)
        // Keys below the earlier value are not duplicates when the later value has them again.
        for below in table.stamps.indices where below != node && table.stamps[below] == rowStamp && table.isNode(below, under: node) {
            table.stamps[below] = 0
        }
        duplicateKeys &+= 1
        if duplicateKeys == 1 {
            firstDuplicateKey = String(decoding: text.bytes, as: UTF8.self)
            firstDuplicateLine = line
        }
    }

    /// Empties, in the current row, the cell written at `node` and every cell below it
    /// (`a` clears `a`, `a.b`, `a.b.c`), for a duplicate key.
    /// - Complexity: O(columns × depth); only for duplicate keys.
    mutating func clearCells(under node: Int) {
        for column in slots.indices where slots[column].stamp == rowStamp {
            if table.isNode(slots[column].node, under: node) { slots[column].stamp = 0 }
        }
    }

    /// The node of `Column N` (1-based `index + 1`), made once.
    mutating func positionalNode(_ index: Int) -> Int {
        while positionalNodes.count <= index {
            positionalNodes.append(table.node(named: "Column \(positionalNodes.count &+ 1)"))
        }
        return positionalNodes[index]
    }

    /// The node of the column `Value`, made once.
    mutating func valueColumnNode() -> Int {
        if valueNode < 0 { valueNode = table.node(named: "Value") }
        return valueNode
    }

    /// Fills `record` with the ready row: one field per known column, in column order.
    /// - Complexity: O(columns + bytes of the row).
    package mutating func emit(into record: inout Record) {
        rowReady = false
        record.line = rowLine
        let bytes = rowBytes.bytes
        for slot in slots {
            if slot.stamp == rowStamp {
                record.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[slot.start..<slot.end]))
            }
            record.endField()
        }
    }

    /// Appends `text` as a JSON string: quotes, and escapes for `"`, `\` and control characters only.
    /// Whether a string element of a joined array must be written in quotes to read as itself:
    /// it is empty, holds `,` (which would read as two elements), starts with `"` or starts or
    /// ends with a space, or reads as a number, `true`, `false` or `null` (so `["1"]` and `[1]`,
    /// `["a, b"]` and `["a","b"]` do not print alike).
    static func isAmbiguousInList(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = s.first, let last = s.last else { return true }
        if first == 0x22 || first == 0x20 || last == 0x20 || s.contains(UInt8(ascii: ",")) { return true }
        if s.elementsEqual("true".utf8) || s.elementsEqual("false".utf8) || s.elementsEqual("null".utf8) { return true }
        return JSONText.isNumber(s)
    }

    static func appendQuoted(_ text: ByteScratch, to out: ByteScratch) {
        out.append(0x22)
        JSONText.escape(text.bytes) { out.append($0) }
        out.append(0x22)
    }


    /// Bytes the reader keeps between rows (its scratch buffers' capacities), for tests of I7.
    package var retainedCapacity: Int {
        text.capacity + rowBytes.capacity + compact.capacity + joined.capacity
            + frames.capacity * MemoryLayout<Frame>.stride
            + slots.capacity * MemoryLayout<Slot>.stride + positionalNodes.capacity * MemoryLayout<Int>.stride
    }
}
