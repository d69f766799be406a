import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The CSV conformance suites in `Tests/Conformance` (its README §2, §3), run through the reader
/// at several chunk sizes. Each suite asserts its pass count exactly and prints a summary line.
@Suite("CSV conformance")
struct CSVConformanceTests {
    typealias Kit = InputTestKit

    /// Chunk sizes every check is run at; a check passes only when all of them agree.
    static let chunkSizes = Kit.someChunkSizes

    // MARK: - csv-spectrum (Tests/Conformance/README.md §2)

    @Test("I2: csv-spectrum — every csvs/NAME.csv equals json/NAME.json")
    func csvSpectrum() throws {
        let folder = TestPaths.conformance.appendingPathComponent("csv-spectrum")
        let csvs = TestPaths.files(in: folder.appendingPathComponent("csvs"), extensions: ["csv"])
        #expect(csvs.count == 12, "Tests/Conformance/README.md lists 12 csv-spectrum cases")
        var passed = 0
        var failures: [String] = []
        for csv in csvs {
            let name = csv.deletingPathExtension().lastPathComponent
            let bytes = try [UInt8](Data(contentsOf: csv))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("json/\(name).json")))
            var ok = true
            for chunk in Self.chunkSizes {
                // Comma, header row, every field a string (no type inference: "08123" stays).
                let got = readCSV(bytes, dialect: .csv(), chunkSize: chunk)
                guard got.error == nil, let header = got.records.first else {
                    ok = false
                    failures.append("\(name) chunk \(chunk): \(got.error.map(String.init(describing:)) ?? "no header")")
                    continue
                }
                let objects: [[String: String]] = got.records.dropFirst().map { row in
                    Dictionary(zip(header, row).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
                }
                #expect(got.records.dropFirst().allSatisfy { $0.count == header.count }, "\(name): ragged rows")
                if name == "location_coordinates" {
                    // Known upstream defect (README §2): the JSON is a bare object, not an array, and its
                    // phone number (1234567890) is not the CSV's (2095257564). As that README says,
                    // compare the other three fields only, and pin the phone number to the CSV's own text.
                    // The literal U+FFFD in both files must pass through unchanged.
                    guard let expected = json as? [String: String], objects.count == 1 else {
                        ok = false
                        failures.append("\(name) chunk \(chunk): unexpected shape")
                        continue
                    }
                    let compared = ["Location Coordinates", "Cities", "Counties"]
                    let same = compared.allSatisfy { objects[0][$0] == expected[$0] }
                        && objects[0]["Contact Phone Number"] == "2095257564"
                        && objects[0]["Location Coordinates"]?.contains("\u{FFFD}") == true
                    if !same { ok = false; failures.append("\(name) chunk \(chunk): \(objects) vs \(expected)") }
                } else {
                    guard let expected = json as? [[String: String]] else {
                        ok = false
                        failures.append("\(name): expected JSON is not an array of string objects")
                        continue
                    }
                    if objects != expected { ok = false; failures.append("\(name) chunk \(chunk): \(objects) vs \(expected)") }
                }
            }
            if ok { passed += 1 }
        }
        print("csv-spectrum: \(passed)/\(csvs.count) passed (location_coordinates compared on 3 of 4 fields, upstream defect)")
        #expect(failures.isEmpty, "\(failures)")
        #expect(passed == csvs.count)
        #expect(passed == 12)
    }

    // MARK: - FastCSV specification (Tests/Conformance/README.md §3)

    static func loadFastCSV() throws -> [(file: String, spec: FastCSVSpec.File)] {
        let folder = TestPaths.conformance.appendingPathComponent("FastCSV-spec")
        return try TestPaths.files(in: folder, extensions: ["yaml"]).map { url in
            (url.deletingPathExtension().lastPathComponent, try FastCSVSpec.parse(String(decoding: Data(contentsOf: url), as: UTF8.self)))
        }
    }

    /// How one variant went.
    enum Verdict: Equatable { case exact, rejected, wrong(String) }

    static func run(_ variant: FastCSVSpec.Variant, dialect: Dialect, exceptionAllowed: Bool) -> Verdict {
        var verdict: Verdict?
        for chunk in chunkSizes {
            let got = readCSV(variant.input, dialect: dialect, chunkSize: chunk)
            let this: Verdict
            if let error = got.error {
                // A clear error: malformed, with a position. Only allowed where the spec allows it.
                this = exceptionAllowed && error.kind == .malformed && error.position != nil
                    ? .rejected : .wrong("chunk \(chunk): error \(error)")
            } else if got.records == variant.records {
                this = .exact
            } else {
                this = .wrong("chunk \(chunk): \(got.records) ≠ \(variant.records)")
            }
            if case .wrong = this { return this }
            if let verdict, verdict != this { return .wrong("chunk \(chunk) disagrees with other chunk sizes") }
            verdict = this
        }
        return verdict ?? .wrong("not run")
    }

    @Test("I2: FastCSV spec — placeholders, structure and counts as Tests/Conformance/README.md says")
    func fastCSVInventory() throws {
        let files = try Self.loadFastCSV()
        #expect(files.count == 15)
        #expect(files.reduce(0) { $0 + $1.spec.checks.count } == 60)
        #expect(files.reduce(0) { $0 + $1.spec.checks.reduce(0) { $0 + FastCSVSpec.variants(of: $1).count } } == 108)
        #expect(files.allSatisfy { !$0.spec.name.isEmpty && $0.spec.checks.allSatisfy { !$0.id.isEmpty } })
        // Placeholder expansion (README §3): ␤ is CRLF in the input; ⏎ gives LF, CRLF and CR
        // variants, also inside the expected values.
        let withinFields = FastCSVSpec.Check(id: "x", input: "\"A⏎B\"", records: [["A⏎B"]])
        #expect(FastCSVSpec.variants(of: withinFields).map(\.records) == [[["A\nB"]], [["A\r\nB"]], [["A\rB"]]])
        #expect(FastCSVSpec.variants(of: withinFields).map(\.input) == [Array("\"A\nB\"".utf8), Array("\"A\r\nB\"".utf8), Array("\"A\rB\"".utf8)])
        let crlf = FastCSVSpec.Check(id: "y", input: "␤D␊␍", records: [[""], ["D"]])
        #expect(FastCSVSpec.variants(of: crlf).map(\.input) == [Array("\r\nD\n\r".utf8)])
        // The YAML subset: '' inside single quotes, folded descriptions skipped, records: [].
        let yaml = """
        # comment
        name: Demo
        description: >-
          Some text: with a colon

          and a blank line.
        settings:
          exceptionAllowed: true
        checks:
          - id: demo-1
            input: '\"\"\"D\"'
            description: >-
              text
            records:
            - [ '"D', 'it''s', "x\\ty" ]
          - id: demo-2
            input: ""
            records: []
        """
        let parsed = try FastCSVSpec.parse(yaml)
        #expect(parsed.name == "Demo")
        #expect(parsed.settings == ["exceptionAllowed": "true"])
        #expect(parsed.checks.map(\.id) == ["demo-1", "demo-2"])
        #expect(parsed.checks.first?.input == "\"\"\"D\"")
        #expect(parsed.checks.first?.records == [["\"D", "it's", "x\ty"]])
        #expect(parsed.checks.last?.records == [])
    }

    @Test("I2: FastCSV spec — records as the spec says (comments and settings as the conformance README directs)")
    func fastCSV() throws {
        var strict = (passed: 0, total: 0)  // no settings, and commentMode NONE: exact records
        var lenient = (passed: 0, total: 0, rejected: [String]())  // exceptionAllowed: exact or an error
        var skipEmpty = (passed: 0, total: 0)  // skipEmptyLines: true, our default
        var skipped: [String] = []
        var failures: [String] = []
        for (file, spec) in try Self.loadFastCSV() {
            let settings = spec.settings
            for check in spec.checks {
                for variant in FastCSVSpec.variants(of: check) {
                    switch (settings["commentMode"], settings["exceptionAllowed"], settings["skipEmptyLines"]) {
                    case ("READ", _, _), ("SKIP", _, _):
                        // tablefmt has no comment mode: `#` is always data (comments-none covers
                        // that). The READ and SKIP checks test an option we do not have.
                        skipped.append(variant.id)
                    case (_, "true", _):
                        lenient.total += 1
                        switch Self.run(variant, dialect: Dialect(skipBlankLines: false), exceptionAllowed: true) {
                        case .exact: lenient.passed += 1
                        case .rejected: lenient.passed += 1; lenient.rejected.append(variant.id)
                        case .wrong(let why): failures.append("\(file) \(variant.id): \(why)")
                        }
                    case (_, _, "true"):
                        // tablefmt skips blank lines by default: run with the default dialect.
                        skipEmpty.total += 1
                        if case .wrong(let why) = Self.run(variant, dialect: Dialect(), exceptionAllowed: false) {
                            failures.append("\(file) \(variant.id): \(why)")
                        } else { skipEmpty.passed += 1 }
                    case (nil, nil, nil), ("NONE", nil, nil):
                        // The spec's default keeps blank lines as one empty field: skipBlankLines false.
                        strict.total += 1
                        if case .wrong(let why) = Self.run(variant, dialect: Dialect(skipBlankLines: false), exceptionAllowed: false) {
                            failures.append("\(file) \(variant.id): \(why)")
                        } else { strict.passed += 1 }
                    default:
                        failures.append("\(file): settings not understood: \(settings)")
                    }
                }
            }
        }
        print("FastCSV-spec strict (no settings + comments-none, skipBlankLines false): \(strict.passed)/\(strict.total) passed")
        print("FastCSV-spec exceptionAllowed: \(lenient.passed)/\(lenient.total) passed (rejected with an error: \(lenient.rejected.joined(separator: ", ")))")
        print("FastCSV-spec skip-empty-lines (our default): \(skipEmpty.passed)/\(skipEmpty.total) passed")
        print("FastCSV-spec comments-read/comments-skip: \(skipped.count) variants skipped (no comment mode)")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // 8 no-settings files (34 variants) + comments-none (7 checks, 19 variants).
        #expect(strict.passed == 53 && strict.total == 53)
        #expect(lenient.passed == lenient.total && lenient.total == 14)
        // `A,"B` and `"A,B` leave a quote open at the end of the input: an error (E1), not a guess.
        #expect(Set(lenient.rejected) == ["open-quotation-1", "open-quotation-2"])
        #expect(skipEmpty.passed == 3 && skipEmpty.total == 3)
        #expect(skipped.count == 38)
    }

    /// tablefmt skips blank lines by default (a deliberate deviation from the spec's default). Run
    /// the strict checks with our default dialect and pin exactly which ones that changes.
    @Test("I2: FastCSV spec under tablefmt's default (blank lines skipped): the deviations")
    func fastCSVDefaultDeviations() throws {
        var deviations: [String: [[String]]] = [:]
        for (_, spec) in try Self.loadFastCSV() where spec.settings.isEmpty || spec.settings == ["commentMode": "NONE"] {
            for check in spec.checks {
                for variant in FastCSVSpec.variants(of: check) {
                    let got = readCSV(variant.input, dialect: Dialect(), chunkSize: 1)
                    if got.error != nil || got.records != variant.records { deviations[variant.id] = got.records }
                }
            }
        }
        print("FastCSV-spec under tablefmt's defaults: deviations \(deviations.keys.sorted())")
        // line-breaks-3 (`␤D` → [[""], ["D"]]): the empty first line is skipped, giving [["D"]].
        // The corpus notes expected trailing-field-separator to show it too, but its lines (`,`, ` ,`)
        // hold a delimiter, so they are not blank and still give two fields: no deviation there.
        #expect(deviations == ["line-breaks-3": [["D"]]])
    }
}
