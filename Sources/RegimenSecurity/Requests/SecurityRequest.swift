public import OrderedCollections
public import RegimenLanguage

/// Who is asking: `request.auth`. A signed-out request has no `AuthContext`.
public struct AuthContext: Sendable, Hashable {
    /// The signed-in user's ID (`request.auth.uid`).
    public let uid: String
    /// ID-token claims as the rules see them in `request.auth.token`.
    public let token: OrderedDictionary<String, Value>
    /// `request.auth` as a value: `{uid, token}`. The token always carries `sub` (the uid), as
    /// real ID tokens do; claims given by the caller win. Built once, read on every decision.
    public let value: Value

    /// A signed-in user with the given ID and ID-token claims; `sub` defaults to the uid.
    public init(uid: String, token: OrderedDictionary<String, Value> = [:]) {
        self.uid = uid
        self.token = token
        var claims = token
        if claims["sub"] == nil { claims["sub"] = .string(uid) }
        let fields: OrderedDictionary<String, Value> = ["uid": .string(uid), "token": .map(claims)]
        value = .map(fields)
    }
}

/// A field value in write data: a plain value, or one of the SDK's sentinels.
public indirect enum WriteValue: Sendable, Hashable {
    /// A plain value, written as it is.
    case value(Value)
    /// `serverTimestamp()`: becomes `request.time`.
    case serverTimestamp
    /// `deleteField()`: removes the field in an update.
    case deleteField
    /// A map whose fields may hold sentinels.
    case map(OrderedDictionary<String, WriteValue>)
    /// A list whose elements may hold sentinels.
    case list([WriteValue])

    /// The value stored once the write is applied at `time`; `nil` for a deleted field.
    func resolved(at time: Timestamp) -> Value? {
        switch self {
        case .value(let v): return v
        case .serverTimestamp: return .timestamp(time)
        case .deleteField: return nil
        case .map(let fields):
            var out = OrderedDictionary<String, Value>()
            for (key, field) in fields { if let v = field.resolved(at: time) { out[key] = v } }
            return .map(out)
        case .list(let items): return .list(items.compactMap { $0.resolved(at: time) })
        }
    }
}

extension WriteValue {
    /// Plain field values as write data (no sentinels).
    public static func fields(_ values: OrderedDictionary<String, Value>) -> OrderedDictionary<String, WriteValue> {
        values.mapValues { WriteValue.value($0) }
    }

    /// The same value without sentinels, or `nil` when it holds one anywhere.
    var plainValue: Value? {
        switch self {
        case .value(let v): return v
        case .serverTimestamp, .deleteField: return nil
        case .map(let fields): return WriteData.plainValues(fields).map(Value.map)
        case .list(let items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let v = item.plainValue else { return nil }
                out.append(v)
            }
            return .list(out)
        }
    }
}

/// The data of a write, as the client SDK sends it: a document of plain values, and (usually
/// absent) the fields written with a sentinel. Plain data is kept as the caller's own map, so a
/// decision reads it without converting it; data with sentinels is resolved at the request's
/// time.
public struct WriteData: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The plain fields as one `map` value, so `request.resource.data` shares it. Empty when
    /// `sentinelFields` is set.
    let document: RegimenLanguage.Value
    /// The fields as written when they hold `serverTimestamp()` or `deleteField()` anywhere.
    let sentinelFields: OrderedDictionary<String, WriteValue>?

    /// Plain field values (no sentinels), shared as they are.
    public init(_ values: OrderedDictionary<String, RegimenLanguage.Value>) {
        self.init(document: .map(values), sentinelFields: nil)
    }

    /// Fields that may hold sentinels; kept as plain values when none does.
    public init(fields: OrderedDictionary<String, WriteValue>) {
        if let values = Self.plainValues(fields) {
            self.init(document: .map(values), sentinelFields: nil)
        } else {
            self.init(document: .map([:]), sentinelFields: fields)
        }
    }

    private init(document: RegimenLanguage.Value, sentinelFields: OrderedDictionary<String, WriteValue>?) {
        self.document = document
        self.sentinelFields = sentinelFields
    }

    public init(dictionaryLiteral elements: (String, WriteValue)...) {
        self.init(fields: OrderedDictionary(uniqueKeysWithValues: elements))
    }

    /// The fields as written, sentinels included.
    public var fields: OrderedDictionary<String, WriteValue> {
        sentinelFields ?? WriteValue.fields(values)
    }

    /// The plain fields; `nil` when some field holds a sentinel.
    var plainFields: OrderedDictionary<String, RegimenLanguage.Value>? {
        sentinelFields == nil ? values : nil
    }

    private var values: OrderedDictionary<String, RegimenLanguage.Value> { document.mapValue ?? [:] }

    /// The document the write stores at `time`, as a `map` value (sentinels resolved, deleted
    /// fields dropped).
    func resolved(at time: Timestamp) -> RegimenLanguage.Value {
        guard let sentinelFields else { return document }
        return .map(PreparedRequest.resolve(sentinelFields, time: time))
    }

    static func plainValues(_ fields: OrderedDictionary<String, WriteValue>) -> OrderedDictionary<String, RegimenLanguage.Value>? {
        var out: [RegimenLanguage.Value] = []
        out.reserveCapacity(fields.count)
        for field in fields.values {
            guard let v = field.plainValue else { return nil }
            out.append(v)
        }
        return OrderedDictionary(uncheckedUniqueKeys: fields.keys.elements, values: out)
    }

    // Equal when written the same, in the same order, as the fields' dictionaries were.
    public static func == (lhs: WriteData, rhs: WriteData) -> Bool { lhs.fields == rhs.fields }
    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

/// Constraints of a list query, as the client SDK would send them.
public struct ListQuery: Sendable, Hashable {
    /// The query's `limit`, if any (`request.query.limit`).
    public var limit: Int64?
    /// The query's `offset`, if any (`request.query.offset`).
    public var offset: Int64?
    /// Field → `asc` / `desc`, in order.
    public var orderBy: OrderedDictionary<String, String>
    /// The query's `where` clauses.
    public var filters: [QueryFilter]
    /// Where the results start and end (`startAt`, `endBefore`, ...), one value per `orderBy`
    /// field. Firestore's rules never see cursors: they constrain no field and are not in
    /// `request.query`, so they change no decision; they are kept so the request is the one the
    /// client sends.
    public var cursors: [QueryCursor]

    /// A query with the given limit, offset, ordering, filters and cursors.
    public init(
        limit: Int64? = nil, offset: Int64? = nil, orderBy: OrderedDictionary<String, String> = [:], filters: [QueryFilter] = [],
        cursors: [QueryCursor] = []
    ) {
        self.limit = limit
        self.offset = offset
        self.orderBy = orderBy
        self.filters = filters
        self.cursors = cursors
    }
}

/// One cursor of a query: `startAt(values)`, `startAfter(values)`, `endAt(values)` or
/// `endBefore(values)`.
public struct QueryCursor: Sendable, Hashable {
    /// Which cursor, spelled as the client SDK spells it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `startAt`: results from the given position, inclusive.
        case startAt
        /// `startAfter`: results after the given position.
        case startAfter
        /// `endAt`: results up to the given position, inclusive.
        case endAt
        /// `endBefore`: results before the given position.
        case endBefore

        /// Whether the cursor starts the results (else it ends them).
        public var starts: Bool { self == .startAt || self == .startAfter }
    }

    /// Which cursor.
    public var kind: Kind
    /// The position: one value per `orderBy` field, in order.
    public var values: [Value]

    /// The cursor `kind(values)`.
    public init(kind: Kind, values: [Value]) {
        self.kind = kind
        self.values = values
    }
}

/// One `where(field, op, value)` of a query.
public struct QueryFilter: Sendable, Hashable {
    /// A comparison a `where` clause may use, spelled as the client SDK spells it.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `==`
        case equal = "=="
        /// `!=`
        case notEqual = "!="
        /// `<`
        case less = "<"
        /// `<=`
        case lessOrEqual = "<="
        /// `>`
        case greater = ">"
        /// `>=`
        case greaterOrEqual = ">="
        /// `in`: the field equals one of the listed values.
        case `in` = "in"
        /// `not-in`: the field equals none of the listed values.
        case notIn = "not-in"
        /// `array-contains`: the array field holds the value.
        case arrayContains = "array-contains"
        /// `array-contains-any`: the array field holds one of the listed values.
        case arrayContainsAny = "array-contains-any"
    }

    /// A field path such as `userId` or `address.city`.
    public var field: String
    /// The comparison.
    public var op: Operator
    /// The value the field is compared with.
    public var value: Value

    /// The clause `where(field, op, value)`.
    public init(field: String, op: Operator, value: Value) {
        self.field = field
        self.op = op
        self.value = value
    }
}

/// What a Storage upload sends: the object's metadata.
public struct StorageUpload: Sendable, Hashable {
    /// The object's size in bytes (`request.resource.size`).
    public var size: Int64
    /// The object's MIME type (`request.resource.contentType`), if given.
    public var contentType: String?
    /// Custom metadata (`request.resource.metadata`).
    public var metadata: OrderedDictionary<String, Value>

    /// An upload of `size` bytes with the given content type and metadata.
    public init(size: Int64, contentType: String?, metadata: OrderedDictionary<String, Value> = [:]) {
        self.size = size
        self.contentType = contentType
        self.metadata = metadata
    }
}

/// The operation a client attempts, as an auditor writes it.
public enum SecurityOperation: Sendable, Hashable {
    /// Reading one document (`getDoc`).
    case get(RequestPath)
    /// Listing a collection with a query (`getDocs`).
    case list(RequestPath, ListQuery)
    /// `setDoc` on a document that must not exist yet (always `create`).
    case create(RequestPath, WriteData)
    /// `updateDoc`: fields (dotted paths allowed) merged into the stored document.
    case update(RequestPath, WriteData)
    /// `setDoc`: the whole document; `create` or `update` depending on whether it exists.
    case set(RequestPath, WriteData)
    /// Deleting a document (`deleteDoc`) or a Storage object.
    case delete(RequestPath)
    /// Uploading a Storage object with its metadata.
    case upload(RequestPath, StorageUpload)
    /// Downloading a Storage object.
    case download(RequestPath)

    /// The document, collection or object the operation is about.
    public var path: RequestPath {
        switch self {
        case .get(let p), .list(let p, _), .create(let p, _), .update(let p, _), .set(let p, _), .delete(let p),
             .upload(let p, _), .download(let p):
            p
        }
    }

    /// The operation's verb as written in a test file.
    public var verb: String {
        switch self {
        case .get: "get"
        case .list: "list"
        case .create: "create"
        case .update: "update"
        case .set: "set"
        case .delete: "delete"
        case .upload: "upload"
        case .download: "download"
        }
    }
}

/// One question to a policy: who, what, when.
public struct SecurityRequest: Sendable, Hashable {
    /// Who asks; `nil` when signed out.
    public var auth: AuthContext?
    /// What they attempt.
    public var operation: SecurityOperation
    /// `request.time`; also the value of server timestamps in the write.
    public var time: Timestamp

    /// A request by `auth` for `operation` at `time`.
    public init(auth: AuthContext?, operation: SecurityOperation, time: Timestamp) {
        self.auth = auth
        self.operation = operation
        self.time = time
    }
}
