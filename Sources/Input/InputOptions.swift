/// What reading needs of the options (the Input stage sees nothing of the output's).
package struct InputOptions: Sendable {
    /// How long, in milliseconds, a pipe's writer may pause before the rows that came are sized
    /// and shown (P4), in print and in the view.
    @inlinable package static var windowPause: Int { 200 }

    package var inputFormat: InputFormat?
    package var delimiter: UInt8?
    package var header = true
    package var encoding: TextEncoding?
    package var maxRowSize = 256 << 20
    /// The input never ends (`--follow`): no advice that waits for its end (`--window all`).
    package var endless = false

    package init(inputFormat: InputFormat? = nil, delimiter: UInt8? = nil, header: Bool = true, encoding: TextEncoding? = nil,
                 maxRowSize: Int = 256 << 20, endless: Bool = false) {
        self.inputFormat = inputFormat
        self.delimiter = delimiter
        self.header = header
        self.encoding = encoding
        self.maxRowSize = maxRowSize
        self.endless = endless
    }
}
