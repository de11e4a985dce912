import OrderedCollections
import RegimenLanguage
import RegimenRules
internal import Yams

/// A YAML node with the file location of its first character, as a `Sendable` value.
///
/// Yams' own `Node` is converted at this boundary so the rest of the module never sees Yams.
struct YAMLNode: Sendable {
    enum Kind: Sendable {
        case scalar(String, style: ScalarStyle, tag: String?)
        case mapping([(key: YAMLNode, value: YAMLNode)])
        case sequence([YAMLNode])
    }

    enum ScalarStyle: Sendable {
        case plain
        case quoted
        case literal
        case folded
    }

    var kind: Kind
    var location: SourceLocation

    /// Parses the first document of `text`. An empty document is an empty mapping.
    static func parse(_ text: String, file: String) throws(DiagnosticsError) -> YAMLNode {
        // A JSON document (what a service's clients send) is read without libyaml, into the same tree.
        if let document = LocatedJSONReader.read(text, file: file) { return YAMLNode(json: document) }
        return try parseThroughLibYAML(text, file: file)
    }

    /// ``parse(_:file:)`` through libyaml, whatever the text.
    static func parseThroughLibYAML(_ text: String, file: String) throws(DiagnosticsError) -> YAMLNode {
        do {
            // The encoding given, not `.default`, which reads the whole environment on every call.
            guard let node = try Yams.compose(yaml: text, .default, .default, .utf8) else {
                return YAMLNode(kind: .mapping([]), location: SourceLocation(file: file, line: 1, column: 1))
            }
            return convert(node, file: file)
        } catch let error as YamlError {
            throw DiagnosticsError([describe(error, file: file)])
        } catch {
            throw DiagnosticsError([.error("yaml.syntax", "\(error)", at: SourceLocation(file: file, line: 1, column: 1))])
        }
    }

    private static func describe(_ error: YamlError, file: String) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            .error("yaml.syntax", problem, at: SourceLocation(file: file, line: mark.line, column: mark.column))
        default:
            .error("yaml.syntax", "\(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    private static func convert(_ node: Node, file: String) -> YAMLNode {
        let location = node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
            ?? SourceLocation(file: file, line: 1, column: 1)
        switch node {
        case .scalar(let scalar):
            let style: ScalarStyle = switch scalar.style {
            case .plain, .any: .plain
            case .literal: .literal
            case .folded: .folded
            default: .quoted
            }
            let tag = scalar.tag.rawValue
            return YAMLNode(kind: .scalar(scalar.string, style: style, tag: tag.isEmpty || tag == "!" ? nil : tag), location: location)
        case .mapping(let mapping):
            return YAMLNode(kind: .mapping(mapping.map { (convert($0.key, file: file), convert($0.value, file: file)) }), location: location)
        case .sequence(let sequence):
            return YAMLNode(kind: .sequence(sequence.map { convert($0, file: file) }), location: location)
        case .alias(let alias):
            return YAMLNode(kind: .scalar("*\(alias.anchor.rawValue)", style: .plain, tag: nil), location: location)
        }
    }

    var scalarText: String? { if case .scalar(let s, _, _) = kind { s } else { nil } }
    var entries: [(key: YAMLNode, value: YAMLNode)]? { if case .mapping(let m) = kind { m } else { nil } }
    var items: [YAMLNode]? { if case .sequence(let s) = kind { s } else { nil } }

    var isNull: Bool {
        if case .scalar(let s, .plain, nil) = kind { return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL" }
        return false
    }

    var kindName: String {
        switch kind {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

/// Reads a YAML mapping key by key, reporting unknown keys, missing keys and wrong types.
struct YAMLMapping {
    let node: YAMLNode
    let context: String
    private var seen: Set<String> = []

    init?(_ node: YAMLNode, context: String, diagnostics: inout DiagnosticCollector) {
        guard node.entries != nil else {
            diagnostics.error("yaml.type", "\(context) must be a mapping, not \(node.kindName)", at: node.location)
            return nil
        }
        self.node = node
        self.context = context
    }

    mutating func value(_ key: String) -> YAMLNode? {
        seen.insert(key)
        return node.entries?.first { $0.key.scalarText == key }?.value
    }

    /// The location of `key` itself (for "missing"/"conflict" messages).
    func keyLocation(_ key: String) -> SourceLocation? {
        node.entries?.first { $0.key.scalarText == key }?.key.location
    }

    mutating func string(_ key: String, diagnostics: inout DiagnosticCollector) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.scalarText, !v.isNull else {
            diagnostics.error("yaml.type", "'\(key)' in \(context) must be a string", at: v.location)
            return nil
        }
        return s
    }

    /// Reports every key not read by `value(_:)`, with a suggestion when one is close.
    func reportUnknownKeys(_ diagnostics: inout DiagnosticCollector) {
        for entry in node.entries ?? [] {
            let key = entry.key.scalarText ?? "?"
            if !seen.contains(key) {
                let suggestion = seen.min { editDistance($0, key) < editDistance($1, key) }
                let notes = suggestion.flatMap { editDistance($0, key) <= 2 ? ["did you mean '\($0)'?"] : nil } ?? []
                diagnostics.error("yaml.unknown-key", "unknown key '\(key)' in \(context)", at: entry.key.location, notes: notes)
            }
        }
    }
}

func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

extension YAMLNode {
    /// The node libyaml composes for a JSON document's node: strings are double-quoted scalars,
    /// implicitly tagged as strings; numbers and literals are plain scalars without a tag.
    init(json node: LocatedNode) {
        location = node.location
        switch node.content {
        case .scalar(let scalar):
            kind = scalar.style == .plain
                ? .scalar(scalar.text, style: .plain, tag: nil)
                : .scalar(scalar.text, style: .quoted, tag: Tag.Name.str.rawValue)
        case .sequence(let items):
            kind = .sequence(items.map(YAMLNode.init(json:)))
        case .mapping(let pairs):
            kind = .mapping(pairs.map { (YAMLNode(json: $0.key), YAMLNode(json: $0.value)) })
        }
    }
}
