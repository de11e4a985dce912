import RegimenLanguage

/// Reads a JSON document into the very ``LocatedNode`` tree ``YAMLReader`` builds for it through
/// libyaml (same nodes, texts, styles and locations), without libyaml.
///
/// Request bodies are JSON, and going through libyaml's token and event streams and Yams' node
/// tree costs many times what reading the JSON does. This reader only answers for documents it
/// knows libyaml reads alike; for anything else it answers `nil`, and the YAML reader reads the
/// text, with its diagnostics. So every diagnostic stays the YAML reader's, and a document gets
/// the same tree whichever reader read it. It answers `nil` for:
/// - anything that is not one JSON object or array (syntax errors included);
/// - a tab or a carriage return outside strings (libyaml refuses a tab where a line starts);
/// - a string holding a character libyaml refuses (controls, U+FFFE, U+FFFF) or takes for a line
///   break (U+0085, U+2028, U+2029), an escaped surrogate or an escaped U+0000 (the YAML reader
///   rewrites or refuses those);
/// - a key not followed by its colon on the same line within 1,000 bytes (libyaml's simple-key
///   limits), and a duplicate key (an error the YAML reader locates);
/// - a document the YAML reader's nesting estimate or node budget refuses.
enum LocatedJSONReader {
    /// Gives up past this many bytes between a key's opening quote and its colon: libyaml takes a
    /// key longer than 1,024 characters for something else.
    static let maximumKeySpan = 1_000

    /// The document's tree, or `nil` when the YAML reader must read `text` (see the type's notes).
    package static func read(_ text: String, file: String) -> LocatedNode? {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> LocatedNode? in
            guard startsLikeJSON(bytes), !nestsTooDeep(bytes) else { return nil }
            var parser = Parser(bytes: bytes, source: YAMLSourceLines(file: file, text: text))
            return parser.document()
        }
    }

    /// Whether the first character that is not a space or a line feed opens an object or an array.
    private static func startsLikeJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") {
            return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        }
        return false
    }

    /// The YAML reader's nesting estimate (indentation, sequence dashes that open a line, brackets
    /// wherever they are), computed alike so that a document it refuses is left to it.
    private static func nestsTooDeep(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var flowDepth = 0, depth = 0, leading = true
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                depth = 0
                leading = true
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : UInt8(ascii: "\n")
            let opensSequence = byte == UInt8(ascii: "-") && leading && (next == UInt8(ascii: " ") || next == UInt8(ascii: "\n"))
            switch byte {
            case UInt8(ascii: " ") where leading: depth += 1
            case UInt8(ascii: "-") where opensSequence: depth += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"): flowDepth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): flowDepth = max(0, flowDepth - 1)
            default: break
            }
            if byte != UInt8(ascii: " ") && !opensSequence { leading = false }
            if depth / 2 + flowDepth > YAMLReader.maximumDepth { return true }
        }
        return false
    }

    /// A recursive-descent reader over UTF-8 bytes that tracks lines and columns (in Unicode
    /// scalars, as locations count them). Any surprise ends the read with `nil`.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let source: YAMLSourceLines
        var index = 0
        var line = 1
        var column = 1
        var depth = 0
        var nodeCount = 0

        mutating func document() -> LocatedNode? {
            guard skipWhitespace(), let root = value(), skipWhitespace(), index == bytes.count else { return nil }
            return root
        }

        private var location: SourceLocation { SourceLocation(file: source.file, line: line, column: column) }
        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// Skips spaces and line feeds; `false` at a tab or carriage return (left to libyaml).
        private mutating func skipWhitespace() -> Bool {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "):
                    column += 1
                case UInt8(ascii: "\n"):
                    line += 1
                    column = 1
                case UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    return false
                default:
                    return true
                }
                index += 1
            }
            return true
        }

        /// Steps over one ASCII byte.
        private mutating func step() {
            index += 1
            column += 1
        }

        private mutating func counted() -> Bool {
            nodeCount += 1
            return nodeCount <= YAMLReader.maximumNodeCount
        }

        private mutating func value() -> LocatedNode? {
            guard counted(), let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""):
                let start = location
                guard let text = string() else { return nil }
                return LocatedNode(.scalar(LocatedScalar(text, style: .doubleQuoted, source: source)), at: start)
            default:
                let start = location
                guard let text = number() ?? literal() else { return nil }
                return LocatedNode(.scalar(LocatedScalar(text, style: .plain, source: source)), at: start)
            }
        }

        private mutating func object() -> LocatedNode? {
            let start = location
            guard depth < YAMLReader.maximumDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            step()
            var pairs: [LocatedPair] = []
            var keys: Set<String> = []
            guard skipWhitespace() else { return nil }
            if current == UInt8(ascii: "}") {
                step()
                return LocatedNode(.mapping(pairs), at: start)
            }
            while true {
                guard current == UInt8(ascii: "\""), counted() else { return nil }
                let keyStart = location, keyIndex = index
                guard let key = string(), keys.insert(key).inserted, skipWhitespace(),
                      current == UInt8(ascii: ":"), line == keyStart.line, index - keyIndex <= LocatedJSONReader.maximumKeySpan
                else { return nil }
                step()
                guard skipWhitespace(), let item = value(), skipWhitespace() else { return nil }
                pairs.append(LocatedPair(key: LocatedNode(.scalar(LocatedScalar(key, style: .doubleQuoted, source: source)), at: keyStart), value: item))
                switch current {
                case UInt8(ascii: ","):
                    step()
                    guard skipWhitespace() else { return nil }
                case UInt8(ascii: "}"):
                    step()
                    return LocatedNode(.mapping(pairs), at: start)
                default:
                    return nil
                }
            }
        }

        private mutating func array() -> LocatedNode? {
            let start = location
            guard depth < YAMLReader.maximumDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            step()
            var items: [LocatedNode] = []
            guard skipWhitespace() else { return nil }
            if current == UInt8(ascii: "]") {
                step()
                return LocatedNode(.sequence(items), at: start)
            }
            while true {
                guard let item = value(), skipWhitespace() else { return nil }
                items.append(item)
                switch current {
                case UInt8(ascii: ","):
                    step()
                    guard skipWhitespace() else { return nil }
                case UInt8(ascii: "]"):
                    step()
                    return LocatedNode(.sequence(items), at: start)
                default:
                    return nil
                }
            }
        }

        /// A string from its opening quote; the text is sliced from the bytes when it has no escape.
        private mutating func string() -> String? {
            step()
            let start = index
            var decoded: [UInt8]? = nil
            var runStart = index
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let text: String
                    if var decoded {
                        decoded.append(contentsOf: bytes[runStart..<index])
                        text = String(decoding: decoded, as: UTF8.self)
                    } else {
                        text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    }
                    step()
                    return text
                case UInt8(ascii: "\\"):
                    var buffer = decoded ?? []
                    buffer.append(contentsOf: bytes[runStart..<index])
                    guard escape(into: &buffer) else { return nil }
                    decoded = buffer
                    runStart = index
                case 0..<0x20, 0x7F:
                    return nil
                case 0x80...:
                    guard printable(at: index) else { return nil }
                    // A continuation byte does not start a character, so it takes no column.
                    if byte & 0xC0 != 0x80 { column += 1 }
                    index += 1
                default:
                    step()
                }
            }
            return nil
        }

        /// Whether the character whose UTF-8 sequence holds the byte at `position` is one libyaml
        /// reads as printable and not as a line break: not C1 controls (U+0080–U+009F, NEL among
        /// them), U+2028, U+2029, U+FFFE or U+FFFF. The text is valid UTF-8, so only lead bytes
        /// need looking at.
        private func printable(at position: Int) -> Bool {
            let byte = bytes[position]
            func following(_ offset: Int) -> UInt8 { position + offset < bytes.count ? bytes[position + offset] : 0 }
            switch byte {
            case 0xC2: return following(1) >= 0xA0
            case 0xE2: return !(following(1) == 0x80 && (following(2) == 0xA8 || following(2) == 0xA9))
            case 0xEF: return !(following(1) == 0xBF && (following(2) == 0xBE || following(2) == 0xBF))
            default: return true
            }
        }

        /// Decodes the escape at `index` (a backslash) into `buffer`: JSON's escapes, each of which
        /// libyaml reads alike, but not a surrogate or U+0000.
        private mutating func escape(into buffer: inout [UInt8]) -> Bool {
            guard index + 1 < bytes.count else { return false }
            let letter = bytes[index + 1]
            step()
            step()
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count else { return false }
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let digit = Unicode.Scalar(bytes[index]).hexDigitValue else { return false }
                    value = value * 16 + digit
                    step()
                }
                guard value != 0, let scalar = Unicode.Scalar(value) else { return false }
                buffer.append(contentsOf: String(scalar).utf8)
            default:
                return false
            }
            return true
        }

        /// A number as JSON writes it (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`), as its text.
        private mutating func number() -> String? {
            let start = index
            func digits() -> Int {
                var count = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    step()
                    count += 1
                }
                return count
            }
            if current == UInt8(ascii: "-") { step() }
            if current == UInt8(ascii: "0") {
                step()
            } else {
                guard digits() > 0 else { return reset(to: start) }
            }
            if current == UInt8(ascii: ".") {
                step()
                guard digits() > 0 else { return reset(to: start) }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                step()
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { step() }
                guard digits() > 0 else { return reset(to: start) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        /// `true`, `false` or `null`.
        private mutating func literal() -> String? {
            for word in ["true", "false", "null"] {
                let utf8 = word.utf8
                guard index + utf8.count <= bytes.count, bytes[index..<(index + utf8.count)].elementsEqual(utf8) else { continue }
                for _ in utf8 { step() }
                return word
            }
            return nil
        }

        private mutating func reset(to start: Int) -> String? {
            column -= index - start
            index = start
            return nil
        }
    }
}
