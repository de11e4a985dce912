import OrderedCollections
/// A member access whose base is a variable or a function parameter (`request.auth`,
/// `data.reps`): the commonest shape in rules, read without copying the map it comes from.
struct FieldSite: Sendable {
    enum Base: Sendable {
        case global(Int)
        case local(Int)
    }

    let base: Base
    let name: String
    let span: SourceSpan
    /// Where the host may supply the field in a slot of its own (see ``Projection``).
    let projection: ProjectedField?
    let cache = FieldCache()

    /// The site `node` reads, when it is `variable.field` (projected or not) or `parameter.field`.
    init?(_ node: Node) {
        switch node {
        case .member(.global(let slot, _), let name, let span): base = .global(slot); self.name = name; self.span = span; projection = nil
        case .projected(.global(let slot, _), let name, let field, let span):
            base = .global(slot); self.name = name; self.span = span; projection = field
        case .member(.local(let slot, _), let name, let span): base = .local(slot); self.name = name; self.span = span; projection = nil
        default: return nil
        }
    }

    /// Whether the host projects the variable: then the field is `context.globals[projection.slot]`
    /// when `present`, and absent otherwise.
    @inline(__always)
    private func projected(_ context: borrowing EvaluationContext) -> (present: Bool, slot: Int)? {
        guard let projection, case .int(let bits) = context.globals[projection.presence], bits & projection.projected != 0 else { return nil }
        return (bits & projection.mask != 0, projection.slot)
    }

    /// The field's value; the language's error when the base is not a map holding it.
    @inline(__always)
    func read(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        if let (present, slot) = projected(context) {
            guard present else { throw EvaluationError.undefinedProperty(name, span) }
            return context.globals[slot]
        }
        // The hint is read before the map is touched; see ``FieldCache``.
        let hint = cache.hint
        switch base {
        case .global(let slot):
            if let found = FieldCache.field(of: context.globals[slot], name, hint: hint) {
                if let newHint = found.newHint { cache.remember(newHint) }
                return found.value
            }
            // A map without the key has just been searched: no second search to say so.
            if Self.isMap(context.globals[slot]) { throw EvaluationError.undefinedProperty(name, span) }
            return try EvaluationContext.member(context.globals[slot], name, span)
        case .local(let slot):
            if let found = FieldCache.field(of: context.locals[context.frameBase + slot], name, hint: hint) {
                if let newHint = found.newHint { cache.remember(newHint) }
                return found.value
            }
            if case .value(let value) = context.locals[context.frameBase + slot], Self.isMap(value) {
                throw EvaluationError.undefinedProperty(name, span)
            }
            // Not yet evaluated, failed, or not a map: the ordinary path says which.
            return try EvaluationContext.member(try context.readLocal(slot, span), name, span)
        }
    }

    /// Whether the field, where the hint says it is, is one of the strings `texts`: compared in
    /// place, without copying it out. `nil` when the hint does not lead to a string field (the
    /// caller then reads the field the ordinary way).
    @inline(__always)
    func isString(_ texts: [String], in context: borrowing EvaluationContext) -> Bool? {
        atHint(in: context) { field in
            guard case .string(let value) = field else { return nil }
            return texts.contains { Value.sameScalars(value, $0) }
        }
    }

    /// The field's int, read in place where the hint says it is; `nil` otherwise.
    @inline(__always)
    func intValue(in context: borrowing EvaluationContext) -> Int64? {
        atHint(in: context) { field in
            guard case .int(let value) = field else { return nil }
            return value
        }
    }

    /// Whether the field, where the hint says it is, is `null`; `nil` when the hint misses.
    /// (`request.auth != null` then copies no map.)
    @inline(__always)
    func isNull(in context: borrowing EvaluationContext) -> Bool? {
        atHint(in: context) { Self.isNull($0) }
    }

    /// `field.member` (`request.auth.uid`) where both hints hit: the map in between is read in
    /// place and only the result is copied. `nil` otherwise; the caller then takes the general
    /// path, which also finds the keys the hints missed and reports what is wrong.
    @inline(__always)
    func member(_ member: String, hint memberCache: FieldCache, in context: borrowing EvaluationContext) -> Value? {
        let memberHint = memberCache.hint
        guard memberHint >= 0 else { return nil }
        return atHint(in: context) { field in
            guard case .map(let inner) = field, memberHint < inner.count, inner.keys[memberHint] == member else { return nil }
            return inner.values[memberHint]
        }
    }

    /// `test` applied to the field where the site's hint says it is (or in its projected slot),
    /// read in place; `nil` when the base is not an evaluated map holding the key there.
    @inline(__always)
    private func atHint<Result>(in context: borrowing EvaluationContext, _ test: (borrowing Value) -> Result?) -> Result? {
        if let (present, slot) = projected(context) { return present ? test(context.globals[slot]) : nil }
        let hint = cache.hint
        guard hint >= 0 else { return nil }
        switch base {
        case .global(let slot):
            guard case .map(let map) = context.globals[slot], hint < map.count, map.keys[hint] == name else { return nil }
            return test(map.values[hint])
        case .local(let slot):
            guard case .value(.map(let map)) = context.locals[context.frameBase + slot], hint < map.count, map.keys[hint] == name else { return nil }
            return test(map.values[hint])
        }
    }

    @inline(__always)
    private static func isNull(_ value: borrowing Value) -> Bool {
        switch value {
        case .null: true
        default: false
        }
    }

    @inline(__always)
    private static func isMap(_ value: borrowing Value) -> Bool {
        switch value {
        case .map: true
        default: false
        }
    }
}
