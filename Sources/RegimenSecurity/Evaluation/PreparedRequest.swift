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
    /// `get()`/`exists()` for this request: built here so the store and the pending write move
    /// into it instead of being copied once more per decision. `nil` when no rule can call them.
    var access: DocumentAccess?
    /// `request.time`.
    var time = Timestamp(seconds: 0)
    /// The fields of the maps the policy's ``RequestLayout`` projects (`request` and
    /// `resource` are then null).
    var fields = ProjectedFields()

    struct Branch {
        var label: String?
        var resources: [Value]
    }

    /// `request`'s keys with and without `resource` (reads have none). Whole static arrays, so
    /// each request map shares them instead of copying a prefix.
    static let requestKeys = ["auth", "time", "method", "path", "resource"]
    static let readRequestKeys = ["auth", "time", "method", "path"]

    /// Stands for the unbound document id of a list request; never equal to a literal segment.
    static let listPlaceholder = "\u{0}list"

    enum Rejection: Error {
        case precondition(String)
    }

    /// Classifies the operation (create vs update by existence) and builds the values. `path` is
    /// the operation's path (the caller has read it already).
    /// `buildsResource: false` (no rule can read `resource`) leaves a get's or write's `resource`
    /// null instead of building the stored document's value; `buildsAccess: false` (no rule can
    /// call `get()` and the like) leaves `access` nil. The maps `layout` projects are not built:
    /// their fields go into `fields`.
    static func prepare(
        _ request: SecurityRequest, path: RequestPath, service: SecurityService, store: DocumentStore, layout: RequestLayout,
        buildsResource: Bool = true, buildsAccess: Bool = true
    ) throws(Rejection) -> PreparedRequest {
        // Firestore refuses a document path deeper than its limit before any rule runs; a
        // longer one would make `{doc=**}` bind (and copy) ever longer suffixes.
        guard path.depth <= RequestPath.maxDepth else {
            throw .precondition("the path has \(path.depth) segments below the service root; Firestore's limit is \(RequestPath.maxDepth)")
        }
        // Where the document is, without copying its fields: most writes only ask whether it
        // exists. Looked up only when something reads it: a get or delete needs the stored
        // document only for `resource`, and hashing the path is a sixth of a decision.
        var storedIndex: Dictionary<String, OrderedDictionary<String, Value>>.Index?
        func lookUp() { storedIndex = store.documents.index(forKey: path.description) }
        func storedFields() -> OrderedDictionary<String, Value>? { storedIndex.map { store.documents.values[$0] } }

        // The operation is classified (and rejected) before anything is built, in one switch:
        // each further match on it copies the whole operation.
        // Plain values with flags rather than optionals: each optional is copied and destroyed
        // through outlined helpers on every use.
        let method: RequestMethod
        /// `request.resource` (null for delete); reads have no such key at all.
        var requestResource = Value.null
        var isRead = false
        /// The document after a Firestore write, as a `map` value.
        var written = Value.null
        var writes = false
        switch request.operation {
        case .get, .download:
            method = .get
            isRead = true
            if buildsResource { lookUp() }
        case .delete:
            method = .delete
            if buildsResource { lookUp() }
        case .create(_, let data):
            lookUp()
            if storedIndex != nil { throw .precondition("create: the document already exists (use set or update)") }
            method = .create
            written = data.resolved(at: request.time)
            writes = true
        case .set(_, let data):
            lookUp()
            method = storedIndex == nil ? .create : .update
            written = data.resolved(at: request.time)
            writes = true
        case .update(_, let changes):
            lookUp()
            guard let stored = storedFields() else {
                throw .precondition("update: the document does not exist (updateDoc needs an existing document)")
            }
            method = .update
            written = .map(merge(stored, changes, time: request.time))
            writes = true
        case .upload(_, let upload):
            lookUp()
            method = storedIndex == nil ? .create : .update
            requestResource = ResourceBuilder.storageResource(path: path, size: upload.size, contentType: upload.contentType, metadata: upload.metadata)
        case .list(_, let query):
            return list(request, path: path, query: query, store: store, buildsAccess: buildsAccess)
        }

        var access: DocumentAccess?
        if buildsAccess {
            // getAfter() sees the pending write: Firestore writes (and deletes) change the document; reads and uploads do not.
            let write: (key: String, data: OrderedDictionary<String, Value>?)?
            if writes { write = (path.description, written.mapValue) } else if method == .delete { write = (path.description, nil) } else { write = nil }
            access = DocumentAccess(before: store, write: write)
        }
        let auth = request.auth?.value ?? .null
        // Plain locals, built into the result where it is returned: a local result filled in
        // place was copied out and destroyed again, value by value. The path, time, method and
        // id of projected maps are not kept: ``RequestLayout`` builds them only for the slots
        // some rule reads.
        var resource = Value.null
        var resourceData = Value.null
        var presence: Int64 = 0
        if buildsResource, let stored = storedFields() {
            if layout.projectsResource {
                presence = layout.resourceBits
                resourceData = .map(stored)
            } else {
                resource = service == .storage ? ResourceBuilder.storedObject(path: path, fields: stored)
                    : ResourceBuilder.firestoreResource(name: .path(path.pathValue), id: path.lastSegment, data: .map(stored))
            }
        }
        // Each value is moved into its place at its last use (`consume`): a copy would cost a
        // retain now and a release when the request is freed.
        var requestResourceData = Value.null
        if writes {
            if layout.projectsRequestResource {
                presence |= layout.requestResourceBits
                requestResourceData = consume written
            } else {
                requestResource = ResourceBuilder.firestoreResource(name: .path(path.pathValue), id: path.lastSegment, data: consume written)
            }
        }
        if layout.projectsRequest {
            presence |= isRead ? layout.readRequestBits : layout.writeRequestBits
            return PreparedRequest(
                method: method, matchSegments: path.segments, request: .null, branches: [], resource: resource, access: access,
                time: request.time,
                fields: ProjectedFields(
                    presence: presence, auth: auth, requestResource: requestResource, requestResourceData: requestResourceData,
                    resourceData: resourceData))
        }
        let requestFields: OrderedDictionary<String, Value>
        let time = Value.timestamp(request.time)
        if !isRead {
            requestFields = OrderedDictionary(
                uncheckedUniqueKeys: Self.requestKeys, values: [auth, time, .string(method.rawValue), .path(path.pathValue), requestResource])
        } else {
            requestFields = OrderedDictionary(uncheckedUniqueKeys: Self.readRequestKeys, values: [auth, time, .string(method.rawValue), .path(path.pathValue)])
        }
        return PreparedRequest(
            method: method, matchSegments: path.segments, request: .map(requestFields), branches: [], resource: resource, access: access,
            time: request.time,
            fields: ProjectedFields(presence: presence, requestResourceData: requestResourceData, resourceData: resourceData))
    }

    private static func list(_ request: SecurityRequest, path: RequestPath, query: ListQuery, store: DocumentStore, buildsAccess: Bool) -> PreparedRequest {
        var fields: OrderedDictionary<String, Value> = ["auth": request.auth?.value ?? .null, "time": .timestamp(request.time)]
        fields["method"] = .string("list")
        fields["path"] = .path(path.pathValue)
        fields["query"] = queryValue(query, collection: path)
        return PreparedRequest(
            method: .list, matchSegments: path.segments + [listPlaceholder], request: .map(fields),
            branches: QueryConstraints.branches(for: query, collection: path), resource: .null,
            access: buildsAccess ? DocumentAccess(before: store, write: nil) : nil)
    }

    /// `request.query` with the emulator's nine keys, in its (alphabetical) order. Cursors are not
    /// among them: Firestore's rules never see `startAt` and the like.
    static func queryValue(_ query: ListQuery, collection: RequestPath) -> Value {
        var order = OrderedDictionary<String, Value>()
        for (field, direction) in query.orderBy { order[field] = .string(direction.uppercased() == "DESC" ? "DESC" : "ASC") }
        // The document the collection hangs under; null for a top-level collection (its segments
        // are `databases/{db}/documents/{collection}`).
        let segments = collection.segments
        let parent: Value = segments.count > 4 ? .path(PathValue(segments: Array(segments.dropLast()))) : .null
        return .map([
            "allDescendants": .bool(false),
            "distinct": .bool(false),
            "groupBy": .map([:]),
            "kind": .string(segments.last ?? ""),
            "limit": query.limit.map(Value.int) ?? .null,
            "offset": .int(query.offset ?? 0),
            "orderBy": .map(order),
            "parent": parent,
            "selectOnlyKeys": .bool(false),
        ])
    }

    static func resolve(_ data: OrderedDictionary<String, WriteValue>, time: Timestamp) -> OrderedDictionary<String, Value> {
        // Without deletions every key survives: mapping the values keeps the keys' hash table.
        if !data.values.contains(where: { if case .deleteField = $0 { true } else { false } }) {
            return data.mapValues { $0.resolved(at: time) ?? .null }
        }
        var out = OrderedDictionary<String, Value>()
        for (key, value) in data { if let v = value.resolved(at: time) { out[key] = v } }
        return out
    }

    /// `updateDoc` semantics: each key is a field path (`a.b` sets a nested field), its value
    /// replaces the old one, `!delete` removes it.
    static func merge(_ stored: OrderedDictionary<String, Value>, _ changes: WriteData, time: Timestamp) -> OrderedDictionary<String, Value> {
        if let plain = changes.plainFields, let merged = mergeTopLevel(stored, plain) { return merged }
        return merge(stored, changes.fields, time: time)
    }

    /// The usual update: plain values of top-level fields. The values are copied once, with room
    /// for the new fields, and the stored keys are shared unless a field is new; inserting into a
    /// copy of the stored map would copy both its arrays and then grow them. `nil` when a key is
    /// a field path (or empty), which the general merge handles.
    static func mergeTopLevel(_ stored: OrderedDictionary<String, Value>, _ changes: OrderedDictionary<String, Value>) -> OrderedDictionary<String, Value>? {
        var values = stored.values.elements
        values.reserveCapacity(stored.count + changes.count)
        var added = 0
        for (key, value) in changes {
            if isFieldPath(key) { return nil }
            if let index = stored.index(forKey: key) { values[index] = value } else { added += 1 }
        }
        guard added > 0 else { return OrderedDictionary(uncheckedUniqueKeys: stored.keys.elements, values: values) }
        var keys = stored.keys.elements
        keys.reserveCapacity(stored.count + added)
        // New fields go last, in the order written, as inserting them one by one would.
        for (key, value) in changes where stored.index(forKey: key) == nil {
            keys.append(key)
            values.append(value)
        }
        return OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
    }

    /// Whether an update key is a field path (`a.b`, or empty) rather than a top-level field.
    /// Scanned as contiguous bytes: iterating the UTF-8 view costs a call per byte.
    private static func isFieldPath(_ key: String) -> Bool {
        key.isEmpty || (key.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) } ?? key.utf8.contains(UInt8(ascii: ".")))
    }

    static func merge(_ stored: OrderedDictionary<String, Value>, _ changes: OrderedDictionary<String, WriteValue>, time: Timestamp) -> OrderedDictionary<String, Value> {
        var result = stored
        for (fieldPath, change) in changes {
            let value = change.resolved(at: time)
            // Most keys name a top-level field: no need to split them into a path.
            guard isFieldPath(fieldPath) else {
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
