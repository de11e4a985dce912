import RegimenLanguage
import RegimenRules
import OrderedCollections

/// The shapes of a test file's values that the loader checks itself (a time, a path, the
/// fields of a document), declared for its schema beside the reads (``MappingDecoder/node(_:shape:required:missing:)``).
/// The rest of the schema is described by running the loader's own reads in describing mode
/// (see ``ShapeRecorder``), as for every rule-file kind.
///
/// Paths (document or collection, which depends on whether the named policy is for Firestore
/// or Storage), the policy named by `rules`, duplicate case names and the typed values inside
/// documents are the loader's alone.
extension SecurityTestSuite {
    /// An ISO-8601 date or date-time (bare, quoted, or tagged `!timestamp`), or the typed JSON
    /// `{"$timestamp": "…"}`: the forms ``timestamp(_:in:)`` reads. A date that does not
    /// exist (February 30) is the loader's to find.
    static let timeShape: NodeShape = {
        let pattern = NodeShape.noted(
            .pattern(dateTimePattern), note: "An ISO-8601 date or date-time, such as 2025-01-01T09:00:00Z; whether the day exists is checked by the loader.")
        return .anyOf([pattern, .mapping(MappingShape(properties: ["$timestamp": pattern], required: ["$timestamp"]))])
    }()

    /// What `Timestamp(iso8601:)` reads: a date, or a date, `T` (or `t` or a space), a time with
    /// optional fraction of a second, and `Z` or an offset.
    static let dateTimePattern =
        "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2}))?$"

    /// `time:` of a file or a case: a date-time written bare (which the reader types as a
    /// timestamp), tagged or as typed JSON, or quoted (as JSON always writes it).
    static func timestamp(_ node: LocatedNode, in context: DecodingContext) -> Timestamp? {
        if case .timestamp(let time) = YAMLValues.value(node, in: context) { return time }
        guard node.tag == nil, let scalar = node.scalar, !scalar.style.isPlain else { return nil }
        return Timestamp(iso8601: scalar.text)
    }

    /// A case's name: any scalar but an empty one.
    static let nameShape: NodeShape = .anyOf([.pattern("[\\s\\S]"), .number(minimum: nil, maximum: nil), .boolean])

    /// A request's path: segments separated by `/`, none empty (a leading `/` is allowed). Whether
    /// it must name a document or a collection depends on the policy's service: the loader's.
    static let pathShape: NodeShape = .anyOf([.pattern(pathPattern), .number(minimum: nil, maximum: nil), .boolean])

    /// Fields: a mapping, but not one of the typed values the reader takes a lone `$` key for
    /// (`{"$timestamp": …}`; in a write also `{"$serverTimestamp": true}`, `{"$delete": true}`).
    static func fields(_ value: NodeShape, summary: String, write: Bool = false) -> NodeShape {
        func typed(_ key: String, _ shape: NodeShape) -> NodeShape {
            var entry = MappingShape(properties: [key: shape], required: [key], otherKeys: .anything(note: nil))
            entry.maximumKeys = 1
            return .mapping(entry)
        }
        let scalar = NodeShape.anyOf([.text, .null])
        let yes = NodeShape.anyOf([.boolean, .oneOf(["true"])])
        var fields = MappingShape(otherKeys: value, summary: summary)
        fields.excluded = write ? .anyOf([typed("$timestamp", scalar), typed("$serverTimestamp", yes), typed("$delete", yes)]) : typed("$timestamp", scalar)
        return .mapping(fields)
    }

    /// Documents by path (its segments not empty; a document's number of segments is the
    /// loader's, see ``pathShape``): each a mapping of fields, or null to remove the document.
    static let documentsShape: NodeShape = {
        var documents = MappingShape(
            otherKeys: .anyOf([fields(.anything(note: "A field of the document; tags such as !timestamp type its value."), summary: "A document's fields."), .null]),
            summary: "Documents by path, each a mapping of fields (null removes it).")
        documents.keyPattern = pathPattern
        return .mapping(documents)
    }()

    /// Segments separated by `/`, none empty (a leading `/` is allowed): ``RequestPath/problem(with:)``.
    static let pathPattern = "^/?[^/]+(/[^/]+)*$"

    /// The fields a write sends.
    static let writeDataShape: NodeShape = fields(
        .anything(note: "A written field; !delete removes it in an update, !serverTimestamp is the request's time."), summary: "The fields written.",
        write: true)

    /// `field` or `field asc|desc` (any case).
    static let orderByShape: NodeShape = .anyOf([
        .pattern("^ *[^ ]+( +([aA][sS][cC]|[dD][eE][sS][cC]))? *$"), .number(minimum: nil, maximum: nil), .boolean,
    ])

    /// A cursor: a non-empty list of values, one per `orderBy` field.
    static let cursorShape: NodeShape = .list(.anything(note: "The value of one orderBy field at the cursor; tags such as !timestamp type it."))

    /// `[field, operator, value]`: the field a name, the operator one of the query operators,
    /// and the value a list for the operators that take one (`in`, `not-in`, `array-contains-any`).
    static let whereClauseShape: NodeShape = {
        let field = NodeShape.text
        let value = NodeShape.anything(note: "The value compared with the field; tags such as !timestamp type it.")
        let takesList = QueryFilter.Operator.takingLists.map(\.rawValue)
        let others = QueryFilter.Operator.allCases.map(\.rawValue).filter { !takesList.contains($0) }
        return .anyOf([.record([field, .oneOf(takesList), .list(value)]), .record([field, .oneOf(others), value])])
    }()
}

extension QueryFilter.Operator {
    /// The operators whose value is a list of values.
    static let takingLists: [QueryFilter.Operator] = [.in, .notIn, .arrayContainsAny]
}
