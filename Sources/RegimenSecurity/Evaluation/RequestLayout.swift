import RegimenLanguage

/// Where a decision puts `request`, `resource` and their projected fields (see ``Projection``)
/// in the evaluation slots, and which of them a policy reads only field by field.
///
/// Most rules read `request.auth`, `request.resource.data` and `resource.data`, never the maps
/// themselves. A policy that never uses a map whole gets its fields in slots of their own, and a
/// get or write decision does not build (and free) the map: that was a fifth of its work.
struct RequestLayout: Sendable {
    static let requestSlot = 0
    static let resourceSlot = 1
    static let requestFields = ["auth", "time", "method", "path", "resource", "query"]
    static let resourceFields = ["__name__", "id", "data"]

    /// What the root environment declares: the fields of `request`, `request.resource` and
    /// `resource` that the policy's text reads. Each projected field costs a slot in every
    /// block, so a field no rule names gets none. Reading the syntax errs towards more fields (a
    /// parameter named `request` counts too), which costs a slot and changes no answer. A
    /// Storage object has other fields than a Firestore document and is always built whole.
    static func projections(for policy: SecurityPolicy) -> [Projection] {
        var texts = policy.allAllows.compactMap { $0.condition?.text }
        for function in policy.allFunctions { texts += [function.body.text] + function.lets.map(\.value.text) }
        var requestRead: Set<String> = [], requestResourceRead: Set<String> = [], resourceRead: Set<String> = []
        func scan(_ expr: Expr) {
            if case .member(let base, let name, _) = expr {
                switch base {
                case .identifier("request", _): requestRead.insert(name)
                case .member(.identifier("request", _), "resource", _): requestResourceRead.insert(name)
                case .identifier("resource", _): resourceRead.insert(name)
                default: break
                }
            }
            expr.children.forEach(scan)
        }
        for text in texts {
            if case .success(let expr) = Parser.parse(text) { scan(expr) }
        }
        var projections: [Projection] = []
        func add(_ variable: String, _ fields: [String], _ read: Set<String>) {
            let used = fields.filter(read.contains)
            if !used.isEmpty { projections.append(Projection(variable: variable, fields: used)) }
        }
        add("request", requestFields, requestRead)
        if policy.service == .firestore {
            add("request.resource", resourceFields, requestResourceRead)
            add("resource", resourceFields, resourceRead)
        }
        return projections
    }

    /// The first wildcard slot: after `request`, `resource` and the projection slots.
    let firstWildcardSlot: Int
    let presenceSlot: Int
    /// Each field's slot; -1 where no rule reads the field (it is left null).
    let auth, time, method, path, requestResource: Int
    let requestResourceName, requestResourceID, requestResourceData: Int
    let resourceName, resourceID, resourceData: Int
    /// Presence bits, or 0 where the policy uses the map whole (it is then built as a map).
    let writeRequestBits, readRequestBits, requestResourceBits, resourceBits: Int64

    /// - Parameter conditions: every compiled condition of the policy (each reaches every function).
    init(root: ExpressionEnvironment, conditions: [CompiledExpression]) {
        firstWildcardSlot = root.variables.count
        presenceSlot = root.projectionPresenceSlot ?? -1
        // Each body walked once: a function is shared by every condition that can call it.
        var uses = CompiledExpression.functionSlotUses(conditions)
        for condition in conditions { uses.whole.formUnion(condition.ownSlotUses.whole) }
        func read(_ name: String) -> Int {
            guard let slot = root.slot(of: name), uses.whole.contains(slot) else { return -1 }
            return slot
        }
        func usedWhole(_ name: String) -> Bool { read(name) >= 0 }
        auth = read("request.auth")
        time = read("request.time")
        method = read("request.method")
        path = read("request.path")
        requestResource = read("request.resource")
        requestResourceName = read("request.resource.__name__")
        requestResourceID = read("request.resource.id")
        requestResourceData = read("request.resource.data")
        resourceName = read("resource.__name__")
        resourceID = read("resource.id")
        resourceData = read("resource.data")
        let projectsRequest = !usedWhole("request")
        writeRequestBits = projectsRequest ? root.projectionBits("request", present: ["auth", "time", "method", "path", "resource"]) : 0
        readRequestBits = projectsRequest ? root.projectionBits("request", present: ["auth", "time", "method", "path"]) : 0
        // A field of a whole-built `request` is read from its map, never from projections.
        requestResourceBits = projectsRequest && requestResource < 0 ? root.projectionBits("request.resource", present: Self.resourceFields) : 0
        resourceBits = usedWhole("resource") ? 0 : root.projectionBits("resource", present: Self.resourceFields)
    }

    var projectsRequest: Bool { writeRequestBits != 0 }
    var projectsRequestResource: Bool { requestResourceBits != 0 }
    var projectsResource: Bool { resourceBits != 0 }

    /// Writes `request`, `resource` and the projected fields of `prepared` into `buffer`, which
    /// holds nulls; a buffer too small for them is left so (every read of it then fails).
    /// `moving` takes each value out of `prepared` (leaving null) instead of copying it: a
    /// decision that fills one buffer saves a retain and a release per value.
    func place(_ prepared: inout PreparedRequest, into buffer: UnsafeMutableBufferPointer<Value>, moving: Bool) {
        guard buffer.count >= firstWildcardSlot else { return }
        @inline(__always) func put(_ slot: Int, _ value: inout Value) {
            guard slot >= 0 else { return }
            if moving { swap(&buffer[slot], &value) } else { buffer[slot] = value }
        }
        put(Self.requestSlot, &prepared.request)
        put(Self.resourceSlot, &prepared.resource)
        guard presenceSlot >= 0 else { return }
        buffer[presenceSlot] = .int(prepared.fields.presence)
        guard prepared.fields.presence != 0 else { return }
        put(auth, &prepared.fields.auth)
        put(requestResource, &prepared.fields.requestResource)
        put(requestResourceData, &prepared.fields.requestResourceData)
        put(resourceData, &prepared.fields.resourceData)
        // Built here, and only for the slots some rule reads.
        if time >= 0 { buffer[time] = .timestamp(prepared.time) }
        if method >= 0 { buffer[method] = .string(prepared.method.rawValue) }
        if path >= 0 || requestResourceName >= 0 || resourceName >= 0 {
            // One boxed path shared by `request.path` and both `__name__`s.
            let name = Value.path(PathValue(segments: prepared.matchSegments))
            if path >= 0 { buffer[path] = name }
            if requestResourceName >= 0 { buffer[requestResourceName] = name }
            if resourceName >= 0 { buffer[resourceName] = name }
        }
        if requestResourceID >= 0 || resourceID >= 0 {
            let id = Value.string(prepared.matchSegments.last ?? "")
            if requestResourceID >= 0 { buffer[requestResourceID] = id }
            if resourceID >= 0 { buffer[resourceID] = id }
        }
    }
}

/// The values of the projected fields of one request (see ``RequestLayout``) that exist before
/// any slot is filled; the path, time, method and id are built from the prepared request.
struct ProjectedFields {
    /// Presence bits of every projected map; 0 when none is.
    var presence: Int64 = 0
    var auth = Value.null
    /// Null for a delete, the whole map when `request.resource` is not projected.
    var requestResource = Value.null
    var requestResourceData = Value.null
    var resourceData = Value.null
}
