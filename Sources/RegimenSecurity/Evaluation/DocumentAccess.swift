import OrderedCollections
import RegimenLanguage

/// Serves `get()`, `exists()`, `getAfter()` and `existsAfter()` for one request, and enforces
/// Firestore's limit on how many distinct documents those calls may read.
final class DocumentAccess: EvaluationHost {
    /// Firestore's per-request limit for single-document requests and queries.
    static let maxDistinctReads = 10
    static let hostFunctions = [
        HostFunction(name: "get", arity: 1...1),
        HostFunction(name: "exists", arity: 1...1),
        HostFunction(name: "getAfter", arity: 1...1),
        HostFunction(name: "existsAfter", arity: 1...1),
    ]

    let before: DocumentStore
    /// The pending write, as getAfter()/existsAfter() see it: the path and its data (nil: deleted).
    let write: (key: String, data: OrderedDictionary<String, Value>?)?
    private var readPaths: Set<String> = []
    /// Set when a call went over the limit: the whole request is then denied.
    private(set) var limitExceeded = false
    /// Where each distinct path read is also reported, when a caller asked (``DecisionOptions/readLog``).
    var readLog: DocumentReadLog?

    init(before: DocumentStore, write: (key: String, data: OrderedDictionary<String, Value>?)?) {
        self.before = before
        self.write = write
    }

    func callHost(_ index: Int, name: String, arguments: [Value]) throws(EvaluationError) -> Value {
        let function = index < Self.hostFunctions.count ? Self.hostFunctions[index].name : name
        guard arguments.count == 1, case .path(let path) = arguments[0] else {
            let received = arguments.first?.typeName ?? "nothing"
            throw EvaluationError(.invalidArgument, "Invalid argument: \(function)() expects a path, received \(received).")
        }
        guard path.segments.count >= 5, path.segments[0] == "databases", path.segments[2] == "documents",
              (path.segments.count - 3) % 2 == 0
        else {
            throw EvaluationError(.invalidArgument, "Invalid argument: \(function)() needs a full document path, received \(path).")
        }
        guard path.segments.count - 3 <= RequestPath.maxDepth else {
            throw EvaluationError(.invalidArgument, "Invalid argument: \(function)() path has more than \(RequestPath.maxDepth) segments.")
        }
        let key = path.description
        // Repeated reads of the same document are cached and do not count toward the limit.
        if !readPaths.contains(key) {
            guard readPaths.count < Self.maxDistinctReads else {
                limitExceeded = true
                throw EvaluationError(.limitExceeded, "Exceeded the limit of \(Self.maxDistinctReads) distinct document reads (get/exists) per request.")
            }
            readPaths.insert(key)
            readLog?.record(key)
        }
        var data = before.documents[key]
        var deletedByWrite = false
        if function.hasSuffix("After"), let write, write.key == key {
            data = write.data
            deletedByWrite = write.data == nil
        }
        switch function {
        case "exists", "existsAfter":
            return .bool(data != nil)
        default:
            // Firestore raises an error (not null) for get() of a missing document, but getAfter()
            // of the document the request itself deletes is null (the emulator's answer).
            if data == nil, deletedByWrite { return .null }
            guard let data else {
                throw EvaluationError(.serviceCall, "Service call error. Function: [\(function)], Argument: [\(path)]: document does not exist.")
            }
            return ResourceBuilder.firestoreResource(path: path, data: data)
        }
    }
}

/// Builds the `resource` values the rules see.
enum ResourceBuilder {
    static let resourceKeys = ["data", "id", "__name__"]

    /// `{data, id, __name__}` for a Firestore document.
    static func firestoreResource(path: PathValue, data: OrderedDictionary<String, Value>) -> Value {
        firestoreResource(name: .path(path), id: path.segments.last ?? "", data: .map(data))
    }

    /// `{data, id, __name__}` with the path and the fields already boxed as values, so a
    /// request's several resources share one path box and write data is shared as it is.
    static func firestoreResource(name: Value, id: String, data: consuming Value) -> Value {
        .map(OrderedDictionary(uncheckedUniqueKeys: resourceKeys, values: [consume data, .string(id), name]))
    }

    /// A Storage object: `name` (the object path), `bucket`, `size`, `contentType`, `metadata`.
    static func storageResource(path: RequestPath, size: Int64, contentType: String?, metadata: OrderedDictionary<String, Value>, extra: OrderedDictionary<String, Value> = [:]) -> Value {
        var fields: OrderedDictionary<String, Value> = [
            "name": .string(path.relativeSegments.joined(separator: "/")),
            "bucket": .string(path.segments.count > 1 ? path.segments[1] : ""),
            "size": .int(size),
            "contentType": contentType.map(Value.string) ?? .null,
            "metadata": .map(metadata),
        ]
        for (key, value) in extra where fields[key] == nil { fields[key] = value }
        return .map(fields)
    }

    /// A stored Storage object as the test file describes it (`size`, `contentType`, `metadata`).
    static func storedObject(path: RequestPath, fields: OrderedDictionary<String, Value>) -> Value {
        let size = fields["size"]?.intValue ?? 0
        let contentType = fields["contentType"]?.stringValue
        let metadata = fields["metadata"]?.mapValue ?? [:]
        var extra = fields
        extra.removeValue(forKey: "size")
        extra.removeValue(forKey: "contentType")
        extra.removeValue(forKey: "metadata")
        return storageResource(path: path, size: size, contentType: contentType, metadata: metadata, extra: extra)
    }
}
