/// Output formats (SPEC O1).
public enum OutputFormat: String, Sendable, CaseIterable {
    case plain, ansi, markdown
}

/// Everything the engine needs to know about how to read and draw. The executable builds it
/// from argv and the environment; the engine never looks at either.
public struct FormatOptions: Sendable {
    // Input
    /// `-i`; nil means auto (extension, then sniffing).
    public var inputFormat: InputFormat?
    /// `-d`; nil means sniffed.
    public var delimiter: UInt8?
    /// Whether the first CSV/TSV row is the header (`--no-header` turns it off).
    public var header = true
    /// `--encoding`; nil means UTF-8 unless a BOM says UTF-16.
    public var encoding: TextEncoding?
    /// Rows a pipe is sized from (`--window`); nil sizes from all rows.
    public var window: Int? = 1000

    // Layout
    /// The container width in display columns; nil is unlimited (SPEC W1).
    public var width: Int?
    /// `--ambiguous-wide`.
    public var ambiguousWide = false

    // Output
    public var format: OutputFormat = .plain

    public init() {}
}
