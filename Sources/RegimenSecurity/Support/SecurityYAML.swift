import RegimenLanguage
import RegimenRules
import OrderedCollections

/// Policies, test files, documents and request bodies are read by RegimenRules' ``YAMLReader``,
/// so they get the same located syntax errors, duplicate-key checks and size limits as every
/// other rule file.
enum SecurityYAML {
    /// The single document of `text`; an empty document is an empty mapping, so a blank file is
    /// reported for the keys it lacks.
    static func read(_ text: String, file: String) throws(DiagnosticsError) -> LocatedNode {
        let result = YAMLReader.read(text, file: file)
        if !result.diagnostics.isEmpty { throw DiagnosticsError(result.diagnostics) }
        return result.document ?? LocatedNode(.mapping([]), at: SourceLocation(file: file, line: 1, column: 1))
    }
}

extension LocatedNode {
    /// A plain, untagged null (`~`, `null` or nothing at all), as in `- list:` with no condition.
    var isNull: Bool { tag == nil && scalar?.plainType == .null }
}

/// Reads a YAML mapping key by key, reporting unknown keys, missing keys and wrong types.
///
/// In describing mode (``init(describing:)``) it reads nothing: each read that names a shape
/// records its key, the shape and whether the loader reports the key missing, and finds the key
/// absent. A decoder run on such a mapping describes the mapping it accepts (see
/// ``described``), so a test file's schema comes from the loader's own reads. Keys it never
/// reads are not allowed, as ``reportUnknownKeys(_:)`` reports them.
struct YAMLMapping {
    let node: LocatedNode
    let context: String
    private var seen: Set<String> = []
    /// In describing mode, the keys read so far with their shapes; `nil` when reading a file.
    private(set) var described: MappingShape?

    /// A mapping that records the shape of every read instead of reading.
    init(describing summary: String?) {
        node = LocatedNode(.mapping([]), at: SourceLocation(file: "<schema>", line: 1, column: 1))
        context = "the schema"
        described = MappingShape(summary: summary)
    }

    /// Whether this mapping records shapes instead of reading a file.
    var isDescribing: Bool { described != nil }

    /// The value of `key`; in describing mode, records `key` with `shape` (required when the
    /// caller reports the key missing) and returns `nil`.
    mutating func value(_ key: String, shape: @autoclosure () -> NodeShape, required: Bool = false) -> LocatedNode? {
        guard var mapping = described else { return value(key) }
        if mapping.properties[key] == nil { mapping.properties[key] = shape() }
        if required, !mapping.required.contains(key) { mapping.required.append(key) }
        described = mapping
        return nil
    }


    init?(_ node: LocatedNode, context: String, diagnostics: inout DiagnosticCollector) {
        guard node.mapping != nil else {
            diagnostics.error("yaml.type", "\(context) must be a mapping, not \(node.kindDescription)", at: node.location)
            return nil
        }
        self.node = node
        self.context = context
    }

    mutating func value(_ key: String) -> LocatedNode? {
        seen.insert(key)
        return node[key]
    }

    /// The location of `key` itself (for "missing"/"conflict" messages).
    func keyLocation(_ key: String) -> SourceLocation? {
        node.mapping?.first { $0.key.scalar?.text == key }?.key.location
    }

    /// The text of `key`'s scalar (any non-null scalar); in describing mode, records `key` as
    /// `shape` (required when the caller reports the key missing) and returns `nil`.
    mutating func string(_ key: String, shape: NodeShape = .text, required: Bool = false, diagnostics: inout DiagnosticCollector) -> String? {
        guard let v = value(key, shape: shape, required: required) else { return nil }
        guard let s = v.scalar?.text, !v.isNull else {
            diagnostics.error("yaml.type", "'\(key)' in \(context) must be a string", at: v.location)
            return nil
        }
        return s
    }

    /// Reports every key not read by `value(_:)`, with a suggestion when one is close.
    func reportUnknownKeys(_ diagnostics: inout DiagnosticCollector) {
        for pair in node.mapping ?? [] {
            let key = pair.key.scalar?.text ?? "?"
            if !seen.contains(key) {
                let notes = Suggestion.closest(to: key, among: seen.sorted()).map { ["did you mean '\($0)'?"] } ?? []
                diagnostics.error("yaml.unknown-key", "unknown key '\(key)' in \(context)", at: pair.key.location, notes: notes)
            }
        }
    }
}
