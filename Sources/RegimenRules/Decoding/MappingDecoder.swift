package import RegimenLanguage
import OrderedCollections

/// Reads the keys of one YAML mapping, remembering which keys were asked for so that the rest can
/// be reported as unknown (with a "did you mean" suggestion) when decoding of the mapping ends.
///
/// Obtain one through ``DecodingContext/mapping(_:at:_:)``, which reports unknown keys for you:
/// ```swift
/// let rule = context.mapping(node, at: DecodingPath(subject: "rule '\(id)'")) { map in
///     let threshold = map.required("threshold", as: Double.self, in: 0...100)
///     let note = map.optional("note", as: String.self)
///     return threshold.map { SleepRule(threshold: $0, note: note) }
/// }
/// ```
package struct MappingDecoder {
    /// The mapping node being read.
    package let node: LocatedNode
    /// Where messages about this mapping point; change `path.subject` once an entry's id is known.
    package var path: DecodingPath
    /// The pass's diagnostics.
    package let context: DecodingContext
    private var expected: [String] = []
    private var read: Set<String> = []
    /// In describing mode, the keys asked for so far (see ``ShapeRecorder``).
    private var describedShape = MappingShape()
    /// In describing mode, the raw nodes handed out, whose shape is what is done with them.
    private var describedNodes: [(key: String, node: LocatedNode, required: Bool)] = []

    /// The one key a describing decoder's mapping holds: what a decoder that walks the mapping's
    /// own keys reads under it becomes the shape of every key the decoder does not name. It is
    /// `01`, a word that also reads as the number 1, so that decoders keyed by numbers (meals per
    /// day) go on to describe their entries; no decoder names the key `01` itself (one that
    /// names `1`, as the activity multipliers do for each number of training days, describes it).
    static let anyKey = "01"

    /// A decoder over `node`, or `nil` (with an error reported) if it is not a mapping or has a
    /// key that is not a plain scalar.
    init?(_ node: LocatedNode, path: DecodingPath, context: DecodingContext) {
        guard let pairs = node.mapping else {
            context.error("rules.wrong-type", path.message("must be a mapping, not \(node.kindDescription)"), at: node.location)
            return nil
        }
        for pair in pairs where pair.key.scalar == nil {
            context.error("rules.wrong-type", path.prefixed("mapping keys must be plain words, not \(pair.key.kindDescription)"), at: pair.key.location)
        }
        self.node = node
        self.path = path
        self.context = context
    }

    /// The keys present in the mapping, in file order.
    package var keys: [String] {
        if context.isDescribing { return [Self.anyKey] }
        return (node.mapping ?? []).compactMap { $0.key.scalar?.text }
    }

    /// Whether `key` is present (does not count as reading it).
    package func contains(_ key: String) -> Bool { node[key] != nil }

    /// The location of `key` itself, for messages about the key rather than its value.
    package func location(ofKey key: String) -> SourceLocation? {
        node.mapping?.first { $0.key.scalar?.text == key }?.key.location
    }

    /// The raw node under `key`, marking the key as known; `nil` when absent.
    package mutating func node(_ key: String) -> LocatedNode? {
        expect(key)
        if let recorder = context.recorder { return describedNode(key, required: false, recorder) }
        return node[key]
    }

    /// The raw node under `key`, reporting an error when it is missing.
    /// - Parameter message: What the error says instead of "missing required key", when the
    ///   reader knows better what the key is for.
    package mutating func requiredNode(_ key: String, missing message: String? = nil) -> LocatedNode? {
        expect(key)
        if let recorder = context.recorder { return describedNode(key, required: true, recorder) }
        guard let value = node[key] else {
            context.error("rules.missing-key", path.prefixed(message ?? "missing required key '\(path.appending(key: key).keyPath)'"), at: node.location)
            return nil
        }
        return value
    }

    /// The raw node under `key` for a reader that checks the value itself (a path, a tagged
    /// document value), which declares the value's `shape` for the schema; `nil` when absent
    /// (reported when `required`) and always in describing mode.
    package mutating func node(
        _ key: String, shape: @autoclosure () -> NodeShape, required: Bool = false, missing message: String? = nil
    ) -> LocatedNode? {
        guard let value = required ? requiredNode(key, missing: message) : node(key) else { return nil }
        return context.describe(shape(), for: value) ? nil : value
    }

    /// Marks keys as known without reading them (documentation keys such as `description`).
    package mutating func allow(_ keys: String...) {
        for key in keys {
            expect(key)
            if context.isDescribing { describe(key, .anything(note: nil), required: false) }
        }
    }

    /// Decodes the required `key` as `T`; reports a missing key or a bad value and returns `nil`.
    package mutating func required<T: NodeDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
        if context.isDescribing { return describeValue(key, T.self, required: true) }
        guard let value = requiredNode(key) else { return nil }
        return T.decode(from: value, at: path.appending(key: key), in: context)
    }

    /// Decodes `key` as `T` if present; `nil` when absent or invalid (invalid is reported).
    package mutating func optional<T: NodeDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
        if context.isDescribing { return describeValue(key, T.self, required: false) }
        guard let value = node(key) else { return nil }
        return T.decode(from: value, at: path.appending(key: key), in: context)
    }

    /// Decodes `key` as `T`, or `defaultValue` when the key is absent or its value is invalid.
    package mutating func optional<T: NodeDecodable>(_ key: String, default defaultValue: T) -> T {
        optional(key, as: T.self) ?? defaultValue
    }

    /// A required number that must lie in `range`.
    package mutating func required<T: NodeDecodable & Comparable>(_ key: String, as type: T.Type = T.self, in range: ClosedRange<T>) -> T? {
        if context.isDescribing {
            _ = describeValue(key, T.self, required: true, bounds: (Self.bound(range.lowerBound), Self.bound(range.upperBound)))
            return range.lowerBound
        }
        guard let value = requiredNode(key) else { return nil }
        return Self.checked(value, range: range, at: path.appending(key: key), context: context)
    }

    /// An optional number that must lie in `range` when present.
    package mutating func optional<T: NodeDecodable & Comparable>(_ key: String, as type: T.Type = T.self, in range: ClosedRange<T>) -> T? {
        if context.isDescribing {
            _ = describeValue(key, T.self, required: false, bounds: (Self.bound(range.lowerBound), Self.bound(range.upperBound)))
            return range.lowerBound
        }
        guard let value = node(key) else { return nil }
        return Self.checked(value, range: range, at: path.appending(key: key), context: context)
    }

    /// Decodes the mapping under `key` with `body` (unknown keys inside are reported too).
    /// Reports a missing key when `required` is true.
    package mutating func mapping<Result>(_ key: String, required: Bool = true, _ body: (inout MappingDecoder) -> Result?) -> Result? {
        if context.isDescribing {
            let path = self.path.appending(key: key)
            let context = self.context
            describeShape(key, context.shape { _ = context.mapping($0, at: path, body) }, required: required)
            return nil
        }
        guard let value = required ? requiredNode(key) : node(key) else { return nil }
        return context.mapping(value, at: path.appending(key: key), body)
    }

    /// Decodes each element of the list under `key` with `element`; a missing key is an error
    /// when `required` is true. Failed elements are left out; their errors are reported.
    package mutating func list<Element>(
        _ key: String, required: Bool = true, _ element: (LocatedNode, DecodingPath) -> Element?
    ) -> [Element]? {
        if context.isDescribing {
            let path = self.path.appending(key: key)
            let context = self.context
            describeShape(key, context.shape { _ = context.list($0, at: path, element) }, required: required)
            return []
        }
        guard let value = required ? requiredNode(key) : node(key) else { return nil }
        return context.list(value, at: path.appending(key: key), element)
    }

    /// Reports `message` (a missing key) when `key` is present without `dependent`; the schema
    /// says the same with `dependentRequired`. Returns whether the pair is complete.
    package mutating func requireKey(_ dependent: String, whenPresent key: String, _ message: String) -> Bool {
        if context.isDescribing {
            describedShape.dependentRequired[key, default: []].append(dependent)
            return true
        }
        guard contains(key), !contains(dependent) else { return true }
        context.error("rules.missing-key", path.prefixed(message), at: location(ofKey: key))
        return false
    }

    /// Marks the words under `key` (a word or a list of words, already asked for) as words of
    /// `vocabulary`: the schema lists the words the loaded files define (``NodeShape/vocabulary(_:)``),
    /// as the loader checks them across files. Decoding is unchanged.
    package mutating func vocabulary(_ key: String, _ vocabulary: String) {
        guard context.isDescribing, let shape = describedShape.properties[key] else { return }
        describedShape.properties[key] = shape.vocabulary(vocabulary)
    }

    /// In describing mode, adds `note` to the description of `key` (already read): a rule about
    /// its value the schema cannot state, which the decoder checks itself. Otherwise nothing.
    package mutating func note(_ key: String, _ note: String) {
        guard context.isDescribing, let shape = describedShape.properties[key] else { return }
        describedShape.properties[key] = .noted(shape, note: note)
    }

    /// In describing mode, says what the mapping is (the schema's `description`). Otherwise
    /// nothing.
    package mutating func summary(_ text: String) {
        guard context.isDescribing else { return }
        describedShape.summary = text
    }

    /// Reports `message` (a missing key) when what the decoder read from the mapping `isEmpty`;
    /// the schema requires at least one key. Returns whether the mapping holds something.
    package mutating func requireSomething(_ isEmpty: Bool, _ message: String) -> Bool {
        if context.isDescribing {
            describedShape.nonEmpty = true
            return true
        }
        guard isEmpty else { return true }
        context.error("rules.missing-key", path.prefixed(message), at: node.location)
        return false
    }

    /// Reports every key that was neither read nor allowed. ``DecodingContext/mapping(_:at:_:)``
    /// calls this for you.
    func reportUnknownKeys() {
        guard !context.isDescribing else { return }
        for pair in node.mapping ?? [] {
            guard let key = pair.key.scalar?.text, !read.contains(key) else { continue }
            let suggestion = Suggestion.clause(for: key, among: expected)
            let full = path.appending(key: key).keyPath
            context.error("rules.unknown-key", path.prefixed("unknown key '\(full)'\(suggestion)"), at: pair.key.location)
        }
    }

    /// In describing mode, records `key` with `shape`; what is read under ``anyKey`` is the shape
    /// of every other key.
    private mutating func describe(_ key: String, _ shape: NodeShape, required: Bool) {
        if key == Self.anyKey {
            describedShape.addOtherKeys(shape)
        } else {
            describedShape.add(key, shape, required: required)
        }
    }

    /// Records `key` as asked for, with `shape`.
    private mutating func describeShape(_ key: String, _ shape: NodeShape, required: Bool) {
        expect(key)
        describe(key, shape, required: required)
    }

    /// In describing mode, records `key` as decoded by `T` (within `bounds`) and returns the
    /// sample `T` returns in describing mode (see ``NodeDecodable``), or a raw-node placeholder
    /// when `T` is the node itself.
    private mutating func describeValue<T: NodeDecodable>(_ key: String, _ type: T.Type, required: Bool, bounds: (Double?, Double?)? = nil) -> T? {
        var sample: T?
        let keyPath = path.appending(key: key)
        let context = context
        var shape = context.shape { node in sample = T.decode(from: node, at: keyPath, in: context) }
        if let bounds { shape = shape.bounded(bounds.0, bounds.1) }
        describeShape(key, shape, required: required)
        if T.self == LocatedNode.self, let recorder = context.recorder { return describedNode(key, required: required, recorder) as? T }
        return sample
    }

    /// A raw-node placeholder for `key`; what the decoder does with it becomes the key's shape.
    private mutating func describedNode(_ key: String, required: Bool, _ recorder: ShapeRecorder) -> LocatedNode {
        expect(key)
        let placeholder = recorder.newPlaceholder()
        describedNodes.append((key, placeholder, required))
        return placeholder
    }

    /// The shape of the mapping this describing decoder read: every key asked for, raw nodes
    /// included. ``DecodingContext/mapping(_:at:_:)`` calls it when the decode body returns.
    func finishDescribing(_ recorder: ShapeRecorder) -> MappingShape {
        var shape = describedShape
        for (key, node, required) in describedNodes {
            let recorded = recorder.takeShape(of: node)
            if key == Self.anyKey {
                shape.addOtherKeys(recorded)
            } else {
                shape.add(key, recorded, required: required)
            }
        }
        return shape
    }

    /// A range bound as a schema number (`nil` for a bound that is not a number).
    private static func bound<T>(_ value: T) -> Double? {
        if let value = value as? Int { return Double(value) }
        if let value = value as? Int64 { return Double(value) }
        return value as? Double
    }

    private mutating func expect(_ key: String) {
        if read.insert(key).inserted { expected.append(key) }
    }

    private static func checked<T: NodeDecodable & Comparable>(_ node: LocatedNode, range: ClosedRange<T>, at path: DecodingPath, context: DecodingContext) -> T? {
        guard let value = T.decode(from: node, at: path, in: context) else { return nil }
        guard range.contains(value) else {
            context.error("rules.out-of-range", path.message("must be between \(range.lowerBound) and \(range.upperBound), got \(node)"), at: node.location)
            return nil
        }
        return value
    }
}
