import RegimenLanguage
import RegimenRules

/// A test file's shape (its JSON Schema), described by running the loader's own reads in
/// describing mode (see ``YAMLMapping/init(describing:)``): a key the loader reads is in the
/// schema with the shape its read names, a key it reports missing is required, and a key it
/// does not read is not allowed. Which keys a case may have depends on its operation, so a case
/// is described once per operation and the schema accepts any of them.
///
/// Paths (document or collection, which depends on whether the named policy is for Firestore
/// or Storage), the policy named by `rules`, duplicate case names and the typed values inside
/// documents are the loader's alone.
extension SecurityTestSuite {
    /// The keys of a test file besides `kind` and `version`, as the loader reads them.
    package static var fileShape: MappingShape {
        var top = YAMLMapping(describing: "An auditor's test file: a policy, the documents that exist, and cases with the decision each must get.")
        var ignored = DiagnosticCollector()
        _ = decodeFile(&top, file: "<schema>", policy: nil, diagnostics: &ignored)
        return top.described ?? MappingShape()
    }

    /// One case: any of the shapes a case of each operation has.
    static var caseShape: NodeShape {
        .anyOf(operationKeys.map { verb in
            var map = YAMLMapping(describing: "A test case whose request is '\(verb)'.")
            var ignored = DiagnosticCollector()
            _ = decodeCase(
                &map, describing: verb, service: .firestore, bucket: "default-bucket", time: defaultTime, diagnostics: &ignored,
                expectationOptional: false)
            return .mapping(map.described ?? MappingShape())
        })
    }

    /// `auth` of a case, as ``decodeAuth(_:context:diagnostics:)`` reads it.
    static var authShape: NodeShape {
        var map = YAMLMapping(describing: "The signed-in user; omit it (or write null) for a signed-out request.")
        var ignored = DiagnosticCollector()
        _ = decodeAuth(&map, context: "", diagnostics: &ignored)
        return .mapping(map.described ?? MappingShape())
    }

    /// `query` of a `list` case, as ``decodeQuery(_:diagnostics:)`` reads it.
    static var queryShape: NodeShape {
        var map = YAMLMapping(describing: "The query a list request makes.")
        var ignored = DiagnosticCollector()
        _ = decodeQuery(&map, diagnostics: &ignored)
        return .mapping(map.described ?? MappingShape())
    }

    /// An ISO-8601 date or date-time, which the YAML reader types as a timestamp when written
    /// bare (unquoted), or the typed JSON `{"$timestamp": "…"}`.
    static let timeShape: NodeShape = {
        let pattern = NodeShape.pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}.*)?$")
        return .anyOf([pattern, .mapping(MappingShape(properties: ["$timestamp": pattern], required: ["$timestamp"]))])
    }()

    /// A case's name: any scalar but an empty one.
    static let nameShape: NodeShape = .anyOf([.pattern("[\\s\\S]"), .number(minimum: nil, maximum: nil), .boolean])

    /// A request's path: segments separated by `/`, none empty (a leading `/` is allowed). Whether
    /// it must name a document or a collection depends on the policy's service: the loader's.
    static let pathShape: NodeShape = .anyOf([.pattern("^/?[^/]+(/[^/]+)*$"), .number(minimum: nil, maximum: nil), .boolean])

    /// Documents by path: each a mapping of fields, or null to remove the document.
    static let documentsShape: NodeShape = .dictionary(
        .anyOf([.dictionary(.anything(note: "A field of the document; tags such as !timestamp type its value.")), .null]))

    /// The fields a write sends.
    static let writeDataShape: NodeShape = .dictionary(
        .anything(note: "A written field; !delete removes it in an update, !serverTimestamp is the request's time."))

    /// `field` or `field asc|desc` (any case).
    static let orderByShape: NodeShape = .anyOf([
        .pattern("^ *[^ ]+( +([aA][sS][cC]|[dD][eE][sS][cC]))? *$"), .number(minimum: nil, maximum: nil), .boolean,
    ])

    /// `[field, operator, value]`.
    static let whereClauseShape: NodeShape = .tuple(
        .anything(note: "[field, operator, value]; the operator is one of \(QueryFilter.Operator.allCases.map(\.rawValue).joined(separator: ", "))."),
        count: 3)
}
