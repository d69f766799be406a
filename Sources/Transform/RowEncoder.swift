import Input
import Profile
import Support
import Text
/// Turns one `Encodable` value into a row's cells (the front door's `string(encoding:)`): each
/// property is a cell named by its key, a nested value's properties are named by their dotted
/// path (`address.city`), an array of values is one cell joined with `, `, a `nil` is an empty
/// cell, and a value that encodes as a single value is the column `Value`. Numbers are written
/// as Swift writes them (`1.5`, `42`), booleans as `true` and `false`.
package enum RowEncoder {
    package static func fields(of value: some Encodable) throws -> [(String, String?)] {
        let sink = FieldSink()
        try value.encode(to: PathEncoder(sink: sink, path: []))
        return sink.items
    }
}

/// The cells found so far, in first-seen order; a path set again replaces its cell.
package final class FieldSink {
    var items: [(String, String?)] = []
    private var index: [String: Int] = [:]

    package func set(_ path: [String], _ value: String?) {
        let name = path.isEmpty ? "Value" : path.joined(separator: ".")
        if let k = index[name] {
            items[k].1 = value
        } else {
            index[name] = items.count
            items.append((name, value))
        }
    }

    /// Adds an array element to the cell at `path`, after `, `.
    package func append(_ path: [String], _ value: String?) {
        let name = path.isEmpty ? "Value" : path.joined(separator: ".")
        if let k = index[name], let existing = items[k].1 {
            items[k].1 = existing + ", " + (value ?? "null")
        } else {
            set(path, value ?? "null")
        }
    }
}

package struct PathEncoder: Encoder {
    package let sink: FieldSink
    package let path: [String]
    package var codingPath: [any CodingKey] { path.map(NameKey.init) }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedPath<Key>(sink: sink, path: path))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedPath(sink: sink, path: path) }

    package func singleValueContainer() -> any SingleValueEncodingContainer { SinglePath(sink: sink, path: path) }
}

package struct NameKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { stringValue = String(intValue) }
}

/// Writes scalars at a path; anything else is encoded below it.
private func encodeValue(_ value: some Encodable, at path: [String], sink: FieldSink, element: Bool) throws {
    let text: String?
    switch value {
    case let v as String: text = v
    case let v as Bool: text = v ? "true" : "false"
    case let v as any BinaryInteger: text = "\(v)"
    case let v as Double: text = "\(v)"
    case let v as Float: text = "\(v)"
    default:
        if element {
            // A nested value inside an array: encoded on its own, then written as one cell.
            let inner = FieldSink()
            try value.encode(to: PathEncoder(sink: inner, path: []))
            sink.append(path, inner.items.map { $0.0 == "Value" ? ($0.1 ?? "") : "\($0.0): \($0.1 ?? "")" }.joined(separator: "; "))
        } else {
            try value.encode(to: PathEncoder(sink: sink, path: path))
        }
        return
    }
    if element { sink.append(path, text) } else { sink.set(path, text) }
}

package struct KeyedPath<Key: CodingKey>: KeyedEncodingContainerProtocol {
    package let sink: FieldSink
    package let path: [String]
    package var codingPath: [any CodingKey] { path.map(NameKey.init) }

    package func encodeNil(forKey key: Key) throws { sink.set(path + [key.stringValue], nil) }
    package func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeValue(value, at: path + [key.stringValue], sink: sink, element: false) }
    /// A `nil` optional still names its column (an empty cell), so columns keep the order the
    /// properties are declared in, whichever row first has a value.
    package func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    package func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }
    private func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    private func encode<T: Encodable>(_ value: T?, forKey key: Key, typed: Bool) throws {
        if let value { try encodeValue(value, at: path + [key.stringValue], sink: sink, element: false) }
    }
    package func encode(_ value: Bool, forKey key: Key) throws { try encode(value as Bool?, forKey: key, typed: true) }
    package func encode(_ value: String, forKey key: Key) throws { try encode(value as String?, forKey: key, typed: true) }
    package func encode(_ value: Double, forKey key: Key) throws { try encode(value as Double?, forKey: key, typed: true) }
    package func encode(_ value: Float, forKey key: Key) throws { try encode(value as Float?, forKey: key, typed: true) }
    package func encode(_ value: Int, forKey key: Key) throws { try encode(value as Int?, forKey: key, typed: true) }
    package func encode(_ value: Int8, forKey key: Key) throws { try encode(value as Int8?, forKey: key, typed: true) }
    package func encode(_ value: Int16, forKey key: Key) throws { try encode(value as Int16?, forKey: key, typed: true) }
    package func encode(_ value: Int32, forKey key: Key) throws { try encode(value as Int32?, forKey: key, typed: true) }
    package func encode(_ value: Int64, forKey key: Key) throws { try encode(value as Int64?, forKey: key, typed: true) }
    package func encode(_ value: UInt, forKey key: Key) throws { try encode(value as UInt?, forKey: key, typed: true) }
    package func encode(_ value: UInt8, forKey key: Key) throws { try encode(value as UInt8?, forKey: key, typed: true) }
    package func encode(_ value: UInt16, forKey key: Key) throws { try encode(value as UInt16?, forKey: key, typed: true) }
    package func encode(_ value: UInt32, forKey key: Key) throws { try encode(value as UInt32?, forKey: key, typed: true) }
    package func encode(_ value: UInt64, forKey key: Key) throws { try encode(value as UInt64?, forKey: key, typed: true) }
    package func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedPath<NestedKey>(sink: sink, path: path + [key.stringValue]))
    }
    package func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnkeyedPath(sink: sink, path: path + [key.stringValue]) }
    package func superEncoder() -> any Encoder { PathEncoder(sink: sink, path: path) }
    package func superEncoder(forKey key: Key) -> any Encoder { PathEncoder(sink: sink, path: path + [key.stringValue]) }
}

package struct UnkeyedPath: UnkeyedEncodingContainer {
    package let sink: FieldSink
    package let path: [String]
    package var codingPath: [any CodingKey] { path.map(NameKey.init) }
    package var count = 0

    package init(sink: FieldSink, path: [String]) {
        self.sink = sink
        self.path = path
        sink.set(path, "")  // an empty array is an empty cell
    }

    package mutating func encodeNil() throws {
        if count == 0 { sink.set(path, nil) }
        sink.append(path, nil)
        count += 1
    }

    package mutating func encode<T: Encodable>(_ value: T) throws { try encodeElement(value) }

    private mutating func encodeElement<T: Encodable>(_ value: T) throws {
        if count == 0 { sink.set(path, nil) }
        try encodeValue(value, at: path, sink: sink, element: true)
        count += 1
    }
    package mutating func encode(_ value: Bool) throws { try encodeElement(value) }
    package mutating func encode(_ value: String) throws { try encodeElement(value) }
    package mutating func encode(_ value: Double) throws { try encodeElement(value) }
    package mutating func encode(_ value: Float) throws { try encodeElement(value) }
    package mutating func encode(_ value: Int) throws { try encodeElement(value) }
    package mutating func encode(_ value: Int8) throws { try encodeElement(value) }
    package mutating func encode(_ value: Int16) throws { try encodeElement(value) }
    package mutating func encode(_ value: Int32) throws { try encodeElement(value) }
    package mutating func encode(_ value: Int64) throws { try encodeElement(value) }
    package mutating func encode(_ value: UInt) throws { try encodeElement(value) }
    package mutating func encode(_ value: UInt8) throws { try encodeElement(value) }
    package mutating func encode(_ value: UInt16) throws { try encodeElement(value) }
    package mutating func encode(_ value: UInt32) throws { try encodeElement(value) }
    package mutating func encode(_ value: UInt64) throws { try encodeElement(value) }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return KeyedEncodingContainer(KeyedPath<NestedKey>(sink: sink, path: path + [String(count)]))
    }

    package mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return UnkeyedPath(sink: sink, path: path + [String(count)])
    }

    package mutating func superEncoder() -> any Encoder { PathEncoder(sink: sink, path: path) }
}

package struct SinglePath: SingleValueEncodingContainer {
    package let sink: FieldSink
    package let path: [String]
    package var codingPath: [any CodingKey] { path.map(NameKey.init) }

    package func encodeNil() throws { sink.set(path, nil) }
    package func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Bool) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: String) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Double) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Float) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Int) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Int8) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Int16) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Int32) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: Int64) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: UInt) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: UInt8) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: UInt16) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: UInt32) throws { try encodeValue(value, at: path, sink: sink, element: false) }
    package func encode(_ value: UInt64) throws { try encodeValue(value, at: path, sink: sink, element: false) }
}
