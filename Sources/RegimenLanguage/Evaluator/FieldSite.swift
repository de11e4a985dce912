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
    let cache = FieldCache()

    /// The site `node` reads, when it is `variable.field` or `parameter.field`.
    init?(_ node: Node) {
        switch node {
        case .member(.global(let slot, _), let name, let span): base = .global(slot); self.name = name; self.span = span
        case .member(.local(let slot, _), let name, let span): base = .local(slot); self.name = name; self.span = span
        default: return nil
        }
    }

    /// The field's value; the language's error when the base is not a map holding it.
    @inline(__always)
    func read(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
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

    @inline(__always)
    private static func isMap(_ value: borrowing Value) -> Bool {
        switch value {
        case .map: true
        default: false
        }
    }
}
