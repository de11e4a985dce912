package import OrderedCollections
import RegimenLanguage

/// The shape a decoder accepts at one place of a rule file: the JSON Schema (2020-12) fragment
/// editors check as the coach types.
///
/// Shapes are not written by hand: ``ShapeRecorder`` records them from the very calls a kind's
/// decode function makes (see ``DecodingContext/describing()``), so the schema and the loader
/// share one declaration.
package indirect enum NodeShape: Sendable, Equatable {
    /// Anything; `note` says what checks it instead (the loader, a parser of its own).
    case anything(note: String?)
    /// Any non-null scalar, read as its text (`id: 12` is the string `12`).
    case text
    /// An integer, optionally bounded.
    case integer(minimum: Double?, maximum: Double?)
    /// A number (integer or decimal), optionally bounded.
    case number(minimum: Double?, maximum: Double?)
    /// `true` or `false`.
    case boolean
    /// One of fixed words.
    case oneOf([String])
    /// An expression in the rules language: any non-null scalar; the loader compiles it.
    case expression
    /// A list whose every element has the shape.
    case list(NodeShape)
    /// A list of exactly `count` elements of the shape (a pair `[8, 12]`).
    case tuple(NodeShape, count: Int)
    /// A list of exactly these elements in this order, each with its own shape (`[field, op, value]`).
    case record([NodeShape])
    /// A mapping with named keys.
    case mapping(MappingShape)
    /// A mapping from any word to values of the shape.
    case dictionary(NodeShape)
    /// Any of several shapes (a decoder that accepts more than one form).
    case anyOf([NodeShape])
    /// A YAML null (`~`, `null` or nothing), which some decoders read as the key being absent.
    case null
    /// A YAML string only (not a number or `true` written bare), for decoders that refuse those.
    case string
    /// A YAML string matching a regular expression (ECMA-262, anchored by the pattern itself).
    case pattern(String)
    /// A list whose every element has the shape and appears once.
    case distinctList(NodeShape)
    /// The shape at a JSON pointer into the same schema (`#/properties/match/items`), for a
    /// shape that contains itself (a match block's nested match blocks).
    case reference(String)
    /// The shape, with `note` added to its description: a rule the schema cannot state (one
    /// between values, or what an expression computes), which the loader checks alone.
    case noted(NodeShape, note: String)
    /// A spelling the loader still accepts, with a warning: the shape, marked deprecated, with
    /// `note` saying what to write instead.
    case deprecated(NodeShape, note: String)
    /// A word of a vocabulary the loaded rules and catalogs define (muscles, equipment tags,
    /// exercise ids, food tags): an `enum` of the words ``SchemaVocabularies`` gives for the name,
    /// or any text when the schema is written without them.
    case vocabulary(String)

    /// The shape, or a null (a decoder that reads `key: ~` as the key being absent).
    package var orNull: NodeShape {
        switch self {
        case .anyOf(let shapes): .anyOf(shapes.contains(.null) ? shapes : shapes + [.null])
        case .null, .anything: self
        default: .anyOf([self, .null])
        }
    }

    /// The same shape limited to `minimum...maximum` when it is a number; other shapes unchanged.
    func bounded(_ minimum: Double?, _ maximum: Double?) -> NodeShape {
        switch self {
        case .integer: .integer(minimum: minimum, maximum: maximum)
        case .number: .number(minimum: minimum, maximum: maximum)
        default: self
        }
    }

    /// Whether the shape constrains nothing.
    var isAnything: Bool { if case .anything = self { true } else { false } }

    /// The same shape with every text word (a list's elements and a dictionary's values
    /// included) a word of `vocabulary`.
    package func vocabulary(_ vocabulary: String) -> NodeShape {
        switch self {
        case .text, .string: .vocabulary(vocabulary)
        case .list(let element): .list(element.vocabulary(vocabulary))
        case .distinctList(let element): .distinctList(element.vocabulary(vocabulary))
        case .dictionary(let element): .dictionary(element.vocabulary(vocabulary))
        case .anyOf(let shapes): .anyOf(shapes.map { $0.vocabulary(vocabulary) })
        case .noted(let shape, let note): .noted(shape.vocabulary(vocabulary), note: note)
        default: self
        }
    }
}

/// The words of each vocabulary the loaded rules and catalogs define, by vocabulary name, which
/// `regimen schema` writes as `enum`s (see ``NodeShape/vocabulary(_:)``): a coach's own catalogs
/// give the coach's own enums.
package struct SchemaVocabularies: Sendable, Equatable {
    /// Vocabulary name → its words, sorted.
    var words: [String: [String]]
    /// Vocabulary name → where its words come from, for the schema's description.
    package var sources: [String: String]

    package init(words: [String: [String]] = [:], sources: [String: String] = [:]) {
        self.words = words.mapValues { Array(Set($0)).sorted() }
        self.sources = sources
    }

    /// No vocabulary: every vocabulary word is any text.
    package static let none = SchemaVocabularies()
}

/// The keys of a mapping: each key's shape in the order the decoder asks for them, which keys
/// are required, and what other keys may hold (`nil`: no other key is allowed, as the loader
/// reports every key it did not read as unknown).
package struct MappingShape: Sendable, Equatable {
    /// Each named key's shape, in the order the decoder asks for them.
    package var properties: OrderedDictionary<String, NodeShape>
    /// The keys the decoder reports as missing when absent.
    package var required: [String]
    /// The shape of every other key, or `nil` when no other key is allowed.
    package var otherKeys: NodeShape?
    /// What the mapping is, for editors' hover text.
    package var summary: String?
    /// Keys that need other keys beside them (`otherwise_load_pct` needs `lagging_set`).
    package var dependentRequired: OrderedDictionary<String, [String]> = [:]
    /// Whether the mapping must hold at least one key.
    package var nonEmpty = false
    /// The pattern every key must match (ECMA-262, anchored by the pattern itself), for mappings
    /// whose keys are themselves read (a function's signature, a document's path).
    package var keyPattern: String?
    /// The most keys the mapping may hold (1 for a single `key: value` pair).
    package var maximumKeys: Int?
    /// A form the mapping must not have (a typed value such as `{"$timestamp": …}` where fields
    /// belong): JSON Schema's `not`.
    package var excluded: NodeShape?

    /// A mapping shape; with no arguments, the empty mapping that allows no key.
    package init(properties: OrderedDictionary<String, NodeShape> = [:], required: [String] = [], otherKeys: NodeShape? = nil, summary: String? = nil) {
        self.properties = properties
        self.required = required
        self.otherKeys = otherKeys
        self.summary = summary
    }

    /// Adds `key` with `shape`; a key asked for twice keeps its more specific shape, and is
    /// required when either ask requires it.
    mutating func add(_ key: String, _ shape: NodeShape, required isRequired: Bool) {
        if let existing = properties[key] {
            if existing.isAnything, !shape.isAnything { properties[key] = shape }
        } else {
            properties[key] = shape
        }
        if isRequired, !required.contains(key) { required.append(key) }
    }

    /// Adds the shape of keys the decoder reads by iterating over the mapping.
    mutating func addOtherKeys(_ shape: NodeShape) {
        if let existing = otherKeys, !existing.isAnything { return }
        otherKeys = shape
    }
}

extension NodeShape {
    /// What every expression's description says: the schema checks where an expression goes, the
    /// loader checks what it says.
    static let expressionNote =
        "An expression in the Regimen rules language. The schema checks only that one is written here; its syntax, names and types are checked by the loader (regimen check)."

    /// The JSON Schema (2020-12) fragment for this shape, with no vocabulary (any text).
    var jsonSchema: Value { jsonSchema(SchemaVocabularies.none) }

    /// The JSON Schema (2020-12) fragment for this shape, each vocabulary word an `enum` of
    /// `vocabularies`' words.
    func jsonSchema(_ vocabularies: SchemaVocabularies) -> Value {
        func inner(_ shape: NodeShape) -> Value { shape.jsonSchema(vocabularies) }
        var schema = OrderedDictionary<String, Value>()
        switch self {
        case .anything(let note):
            if let note { schema["description"] = .string(note) }
        case .text:
            schema["type"] = .list([.string("string"), .string("number"), .string("boolean")])
        case .integer(let minimum, let maximum):
            schema["type"] = .string("integer")
            Self.bounds(&schema, minimum, maximum)
        case .number(let minimum, let maximum):
            schema["type"] = .string("number")
            Self.bounds(&schema, minimum, maximum)
        case .boolean:
            schema["type"] = .string("boolean")
        case .oneOf(let words):
            schema["enum"] = .list(words.map(Value.string))
        case .expression:
            schema["type"] = .list([.string("string"), .string("number"), .string("boolean")])
            schema["description"] = .string(Self.expressionNote)
        case .list(let element):
            schema["type"] = .string("array")
            if element != .anything(note: nil) { schema["items"] = inner(element) }
        case .tuple(let element, let count):
            schema["type"] = .string("array")
            schema["items"] = inner(element)
            schema["minItems"] = .int(Int64(count))
            schema["maxItems"] = .int(Int64(count))
        case .record(let elements):
            schema["type"] = .string("array")
            schema["prefixItems"] = .list(elements.map(inner))
            schema["minItems"] = .int(Int64(elements.count))
            schema["maxItems"] = .int(Int64(elements.count))
        case .mapping(let mapping):
            schema["type"] = .string("object")
            if let summary = mapping.summary { schema["description"] = .string(summary) }
            if !mapping.properties.isEmpty {
                schema["properties"] = .map(mapping.properties.mapValues(inner))
            }
            if !mapping.required.isEmpty { schema["required"] = .list(mapping.required.map(Value.string)) }
            if !mapping.dependentRequired.isEmpty {
                schema["dependentRequired"] = .map(mapping.dependentRequired.mapValues { .list($0.map(Value.string)) })
            }
            if mapping.nonEmpty { schema["minProperties"] = .int(1) }
            if let maximumKeys = mapping.maximumKeys { schema["maxProperties"] = .int(Int64(maximumKeys)) }
            if let excluded = mapping.excluded { schema["not"] = inner(excluded) }
            if let keyPattern = mapping.keyPattern {
                schema["propertyNames"] = .map(["type": .string("string"), "pattern": .string(keyPattern)])
            }
            schema["additionalProperties"] = mapping.otherKeys.map(inner) ?? .bool(false)
        case .dictionary(let value):
            schema["type"] = .string("object")
            schema["additionalProperties"] = inner(value)
        case .anyOf(let shapes):
            schema["anyOf"] = .list(shapes.map(inner))
        case .null:
            schema["type"] = .string("null")
        case .string:
            schema["type"] = .string("string")
        case .pattern(let pattern):
            schema["type"] = .string("string")
            schema["pattern"] = .string(pattern)
        case .distinctList(let element):
            schema["type"] = .string("array")
            schema["items"] = inner(element)
            schema["uniqueItems"] = .bool(true)
        case .reference(let pointer):
            schema["$ref"] = .string(pointer)
        case .noted(let shape, let note):
            if case .map(let body) = inner(shape) { schema = body }
            schema["description"] = .string([schema["description"]?.stringValue, note].compactMap { $0 }.joined(separator: " "))
        case .vocabulary(let name):
            guard let words = vocabularies.words[name], !words.isEmpty else { return NodeShape.text.jsonSchema }
            schema["enum"] = .list(words.map(Value.string))
            let source = vocabularies.sources[name].map { " (\($0))" } ?? ""
            schema["description"] = .string("A word of the \(name) vocabulary of the loaded rules and catalogs\(source); regimen schema writes this list from the files it loads.")
        case .deprecated(let shape, let note):
            if case .map(let body) = inner(shape) { schema = body }
            schema["deprecated"] = .bool(true)
            schema["description"] = .string(note)
        }
        return .map(schema)
    }

    private static func bounds(_ schema: inout OrderedDictionary<String, Value>, _ minimum: Double?, _ maximum: Double?) {
        if let minimum { schema["minimum"] = number(minimum) }
        if let maximum { schema["maximum"] = number(maximum) }
    }

    /// Whole bounds are written as integers (`20`, not `20.0`).
    private static func number(_ value: Double) -> Value {
        if value.rounded() == value, value.magnitude < 9e15 { return .int(Int64(value)) }
        return .float(value)
    }
}

extension NodeShape: CustomStringConvertible {
    /// The shape's JSON Schema fragment, for messages and test failures (and so that printing a
    /// shape never walks the recursive enum by reflection).
    package var description: String { jsonSchema.jsonString() }
}
