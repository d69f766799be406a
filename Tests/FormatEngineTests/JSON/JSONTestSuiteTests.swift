import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// How tablefmt decides each implementation-defined (`i_`) case of JSONTestSuite, in auto mode.
/// A change in behaviour fails the test, so it is noticed.
///
/// - Numbers of any size or exponent are accepted and keep their source text.
/// - Invalid UTF-8 (inside strings or not) was replaced by U+FFFD in `InputStream`: accepted, with
///   the stream's warning.
/// - Lone or invalid surrogates in `\u` escapes become U+FFFD with the reader's warning: accepted.
/// - UTF-16 without a byte-order mark is told by its NUL bytes (I5) and transcoded: accepted.
///   With a BOM it is transcoded: accepted. A UTF-8 BOM is removed: accepted.
/// - 500 nested arrays are within the default limit of 512: accepted.
let implementationDefined: [String: Bool] = [
    "i_number_double_huge_neg_exp.json": true,
    "i_number_huge_exp.json": true,
    "i_number_neg_int_huge_exp.json": true,
    "i_number_pos_double_huge_exp.json": true,
    "i_number_real_neg_overflow.json": true,
    "i_number_real_pos_overflow.json": true,
    "i_number_real_underflow.json": true,
    "i_number_too_big_neg_int.json": true,
    "i_number_too_big_pos_int.json": true,
    "i_number_very_big_negative_int.json": true,
    "i_object_key_lone_2nd_surrogate.json": true,
    "i_string_1st_surrogate_but_2nd_missing.json": true,
    "i_string_1st_valid_surrogate_2nd_invalid.json": true,
    "i_string_UTF-16LE_with_BOM.json": true,
    "i_string_UTF-8_invalid_sequence.json": true,
    "i_string_UTF8_surrogate_U+D800.json": true,
    "i_string_incomplete_surrogate_and_escape_valid.json": true,
    "i_string_incomplete_surrogate_pair.json": true,
    "i_string_incomplete_surrogates_escape_valid.json": true,
    "i_string_invalid_lonely_surrogate.json": true,
    "i_string_invalid_surrogate.json": true,
    "i_string_invalid_utf-8.json": true,
    "i_string_inverted_surrogates_U+1D11E.json": true,
    "i_string_iso_latin_1.json": true,
    "i_string_lone_second_surrogate.json": true,
    "i_string_lone_utf8_continuation_byte.json": true,
    "i_string_not_in_unicode_range.json": true,
    "i_string_overlong_sequence_2_bytes.json": true,
    "i_string_overlong_sequence_6_bytes.json": true,
    "i_string_overlong_sequence_6_bytes_null.json": true,
    "i_string_truncated-utf-8.json": true,
    "i_string_utf16BE_no_BOM.json": true,
    "i_string_utf16LE_no_BOM.json": true,
    "i_structure_500_nested_arrays.json": true,
    "i_structure_UTF-8_BOM_empty_object.json": true,
]

@Suite("JSONTestSuite conformance")
struct JSONTestSuiteTests {
    let root = TestFiles.jsonTestSuite

    /// Reads a suite file at a few chunk sizes; all must agree.
    func outcome(_ bytes: [UInt8], name: String) -> JSONOutcome {
        let whole = readJSON(bytes)
        for chunkSize in [1, 2, 7] {
            let chunked = readJSON(bytes, chunkSize: chunkSize)
            #expect(chunked == whole, "\(name) at chunk size \(chunkSize)")
        }
        return whole
    }

    @Test("I4: JSONTestSuite y_ accepted, n_ rejected with a position, i_ as recorded")
    func parsing() throws {
        let folder = root + "/test_parsing"
        let names = try #require(TestFiles.list(folder), "cannot list \(folder)")
        var accepted: [String] = []
        var wronglyRejected: [String] = []
        var rejected: [String] = []
        var wronglyAccepted: [String] = []
        var iDecisions: [String: Bool] = [:]
        for name in names where name.hasSuffix(".json") {
            let bytes = try #require(TestFiles.read(folder + "/" + name), "cannot read \(name)")
            let result = outcome(bytes, name: name)
            #expect(result.misshapenRows == 0, "\(name): \(result)")
            if name.hasPrefix("y_") {
                if result.error == nil {
                    accepted.append(name)
                } else {
                    wronglyRejected.append("\(name): \(result.error ?? "")")
                }
            } else if name.hasPrefix("n_") {
                if let error = result.error, !error.hasPrefix("?") {
                    rejected.append(name)
                } else {
                    wronglyAccepted.append("\(name): \(result)")
                }
            } else if name.hasPrefix("i_") {
                iDecisions[name] = result.error == nil
            }
        }
        #expect(accepted.count == 95, "y_ rejected:\n\(wronglyRejected.joined(separator: "\n"))")
        #expect(wronglyRejected.isEmpty)
        #expect(rejected.count == 188, "n_ accepted:\n\(wronglyAccepted.joined(separator: "\n"))")
        #expect(wronglyAccepted.isEmpty)
        #expect(iDecisions.count == 35)
        for (name, decision) in iDecisions.sorted(by: { $0.key < $1.key }) {
            #expect(implementationDefined[name] == decision, "\(name): now \(decision ? "accepted" : "rejected")")
        }
    }

    @Test("I4/E5: JSONTestSuite transform inputs do not crash")
    func transform() throws {
        let folder = root + "/test_transform"
        let names = try #require(TestFiles.list(folder), "cannot list \(folder)")
        var read = 0
        for name in names where name.hasSuffix(".json") {
            let bytes = try #require(TestFiles.read(folder + "/" + name))
            let result = outcome(bytes, name: name)
            #expect(result.error == nil, "\(name): \(result)")
            read += 1
        }
        #expect(read == 22)
    }

    @Test("I4: transform cases show the decisions (exact numbers, last duplicate wins, escaped NUL kept)")
    func transformDecisions() throws {
        let folder = root + "/test_transform"
        func rows(_ name: String) throws -> [[String]] {
            try readJSON(#require(TestFiles.read(folder + "/" + name))).rows
        }
        #expect(try rows("number_1.000000000000000005.json") == [["1.000000000000000005"]])
        #expect(try rows("number_1e-999.json") == [["1E-999"]])
        #expect(try rows("number_10000000000000000999.json") == [["10000000000000000999"]])
        #expect(try rows("object_same_key_different_values.json") == [["2"]])
        #expect(try rows("string_with_escaped_NULL.json") == [["A\u{0}B"]])
    }
}
