#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine
import Support

/// What the terminal says about itself.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The terminal's width in columns, if `fd` is a terminal that knows it.
    static func width(_ fd: Int32) -> Int? { windowSize(fd).flatMap { $0.ws_col > 0 ? Int($0.ws_col) : nil } }

    /// The terminal's columns and lines, if `fd` is a terminal that knows them.
    static func size(_ fd: Int32) -> (width: Int, height: Int)? {
        guard let size = windowSize(fd), size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    private static func windowSize(_ fd: Int32) -> winsize? {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        return ioctl(fd, request, &size) == 0 ? size : nil
    }
}
/// Writes a line to stderr, unbuffered.
/// Every message passes the one sanitiser first (O5): a file name, heading, JSON key or argument
/// quoted in it shows its controls as visible escapes, so nothing from the input or the command
/// line can move the cursor or retitle the terminal through standard error.
func printError(_ line: String) {
    var text = Sanitize.visible(line) + "\n"
    text.withUTF8 { buffer in
        var done = 0
        while done < buffer.count {
            let n = systemWrite(2, from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[done...])))
            if n <= 0 { if errno == EINTR { continue }; return }
            done += n
        }
    }
}
