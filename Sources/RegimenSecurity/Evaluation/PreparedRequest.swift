import OrderedCollections
import RegimenLanguage

/// A request turned into what the rules see: its method, the path to match, `request`, and the
/// `resource` value(s) to evaluate against.
struct PreparedRequest {
    var method: RequestMethod
    /// Segments matched against the `match` tree. For list, the collection path plus one
    /// segment that stands for "any document of the query".
    var matchSegments: [String]
    var request: Value
    /// For list: one entry per query branch (each `in` value is checked separately), each with
    /// the sample documents the branch's range constraints allow. Empty for other methods.
    var branches: [Branch]
    /// The one `resource` of a get or write (null when the document does not exist).
    var resource: Value
    var before: DocumentStore
    /// The document this request writes and its data afterwards (nil for a delete).
    var write: (key: String, data: OrderedDictionary<String, Value>?)?

    struct Branch {
        var label: String?
        var resources: [Value]
    }

    static let requestKeys = ["auth", "time", "method", "path", "resource"]

    /// Stands for the unbound document id of a list request; never equal to a literal segment.
    static let listPlaceholder = "\u{0}list"

    enum Rejection: Error {
        case precondition(String)
    }

    /// Classifies the operation (create vs update by existence) and builds the values.
    static func prepare(_ request: SecurityRequest, service: SecurityService, store: DocumentStore) throws(Rejection) -> PreparedRequest {
        let path = request.operation.path
        let pathValue = path.pathValue
        let auth = request.auth?.value ?? .null
        let time = Value.timestamp(request.time)
        var fields: OrderedDictionary<String, Value> = ["auth": auth, "time": time]
        let stored = store[path]

        func single(
            _ method: RequestMethod, resource: Value, requestResource: Value??, write: (key: String, data: OrderedDictionary<String, Value>?)? = nil
        ) -> PreparedRequest {
            var values: [Value] = [auth, time, .string(method.rawValue), .path(pathValue)]
            if let requestResource { values.append(requestResource ?? .null) }
            let request = Value.map(OrderedDictionary(uncheckedUniqueKeys: Self.requestKeys.prefix(values.count), values: values))
            return PreparedRequest(
                method: method, matchSegments: path.segments, request: request,
                branches: [], resource: resource, before: store, write: write)
        }
        func storedResource() -> Value {
            guard let stored else { return .null }
            return service == .storage ? ResourceBuilder.storedObject(path: path, fields: stored)
                : ResourceBuilder.firestoreResource(path: pathValue, data: stored)
        }
        func write(_ method: RequestMethod, data: OrderedDictionary<String, Value>) -> PreparedRequest {
            single(
                method, resource: storedResource(), requestResource: .some(ResourceBuilder.firestoreResource(path: pathValue, data: data)),
                write: (path.description, data))
        }

        switch request.operation {
        case .get, .download:
            return single(.get, resource: storedResource(), requestResource: nil)
        case .delete:
            return single(.delete, resource: storedResource(), requestResource: .some(.null), write: (path.description, nil))
        case .create(_, let data):
            if stored != nil { throw .precondition("create: the document already exists (use set or update)") }
            return write(.create, data: resolve(data, time: request.time))
        case .set(_, let data):
            return write(stored == nil ? .create : .update, data: resolve(data, time: request.time))
        case .update(_, let changes):
            guard let stored else { throw .precondition("update: the document does not exist (updateDoc needs an existing document)") }
            return write(.update, data: merge(stored, changes, time: request.time))
        case .upload(_, let upload):
            let method: RequestMethod = stored == nil ? .create : .update
            let object = ResourceBuilder.storageResource(path: path, size: upload.size, contentType: upload.contentType, metadata: upload.metadata)
            return single(method, resource: storedResource(), requestResource: .some(object))
        case .list(_, let query):
            fields["method"] = .string("list")
            fields["path"] = .path(pathValue)
            var queryFields: OrderedDictionary<String, Value> = [
                "limit": query.limit.map(Value.int) ?? .null,
                "offset": .int(query.offset ?? 0),
            ]
            var order = OrderedDictionary<String, Value>()
            for (field, direction) in query.orderBy { order[field] = .string(direction.uppercased() == "DESC" ? "DESC" : "ASC") }
            queryFields["orderBy"] = .map(order)
            fields["query"] = .map(queryFields)
            return PreparedRequest(
                method: .list, matchSegments: path.segments + [listPlaceholder], request: .map(fields),
                branches: QueryConstraints.branches(for: query, collection: path), resource: .null, before: store, write: nil)
        }
    }

    static func resolve(_ data: OrderedDictionary<String, WriteValue>, time: Timestamp) -> OrderedDictionary<String, Value> {
        // Without deletions every key survives: mapping the values keeps the keys' hash table.
        if !data.values.contains(where: { $0 == .deleteField }) {
            return data.mapValues { $0.resolved(at: time) ?? .null }
        }
        var out = OrderedDictionary<String, Value>()
        for (key, value) in data { if let v = value.resolved(at: time) { out[key] = v } }
        return out
    }

    /// `updateDoc` semantics: each key is a field path (`a.b` sets a nested field), its value
    /// replaces the old one, `!delete` removes it.
    static func merge(_ stored: OrderedDictionary<String, Value>, _ changes: OrderedDictionary<String, WriteValue>, time: Timestamp) -> OrderedDictionary<String, Value> {
        var result = stored
        for (fieldPath, change) in changes {
            let value = change.resolved(at: time)
            // Most keys name a top-level field: no need to split them into a path.
            guard fieldPath.isEmpty || fieldPath.utf8.contains(UInt8(ascii: ".")) else {
                if let value { result[fieldPath] = value } else { result.removeValue(forKey: fieldPath) }
                continue
            }
            let parts = fieldPath.split(separator: ".").map(String.init)
            set(&result, parts[...], value)
        }
        return result
    }

    private static func set(_ map: inout OrderedDictionary<String, Value>, _ parts: ArraySlice<String>, _ value: Value?) {
        guard let head = parts.first else { return }
        if parts.count == 1 {
            if let value { map[head] = value } else { map.removeValue(forKey: head) }
            return
        }
        var nested = map[head]?.mapValue ?? [:]
        set(&nested, parts.dropFirst(), value)
        map[head] = .map(nested)
    }
}
