import Foundation
import Testing

/// E3 on an input that never ends: `tail -f log.csv | tablefmt | head -3`. Rows after the window
/// stream out whenever the input makes tablefmt wait (P4); once the reader of standard output is
/// gone, that flush fails, and the run must end at the next row instead of reading on for ever.
@Suite("E3: a closed output ends a streaming run")
struct ClosedOutputTests {
    @Test("E3, P4: `endless | tablefmt | head -2` ends soon after head does")
    func endsAfterReaderCloses() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        // A row every 0.3 s, for at most 9 s: the first pause sizes the window and prints it (P4);
        // without the fix tablefmt reads on until the writer ends.
        let writer = "printf 'a,b\\n1,2\\n'; for i in $(seq 30); do sleep 0.3; printf '3,4\\n'; done"
        shell.arguments = ["-c", "(\(writer)) | \"$TF\" -w 0 | head -2 > /dev/null; echo done"]
        shell.environment = ["TF": TestPaths.binary.path, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        shell.standardOutput = out
        let start = Date()
        try shell.run()
        shell.waitUntilExit()
        let elapsed = Date().timeIntervalSince(start)
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "done\n")
        // head exits after the window's rows (about 0.2 s); tablefmt learns of it at its next
        // flush and stops at the next row; the writer then stops at its next write.
        #expect(elapsed < 4, "the pipeline took \(elapsed) s")
    }
}
