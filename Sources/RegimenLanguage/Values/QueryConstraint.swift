/// What a list query's filters say about one field, as Firestore's rules see `resource.data.f`
/// in a list request: not a value but a constraint, from which a rule's comparison is either
/// proved (true) or is an error, never sampled. The emulator's model, established by asking it
/// (`scripts/emulator/list-query-proofs.md` has the table):
/// - `==` is proved only from the query's own equality (an `==` filter beside other filters on
///   the field; a field with only `==` / a one-element `in` is a plain value, not a constraint);
/// - `<`, `<=`, `>`, `>=` are proved from a range bound that implies them; an int bound proves a
///   comparison with an int or a float, a float bound only one with a float; bounds of other
///   types prove comparisons with their own type only; booleans are unordered and prove nothing;
/// - `!=` is proved from a `!=` / `not-in` value, an `==` of another value, or a value outside a
///   bound; `!= null` from any filter that rules null out (not a range on booleans);
/// - `x in f` is proved from an `array-contains` of `x` (`array-contains-any` is one branch per
///   value, each an `array-contains`), and `f.hasAny(l)` is true when it holds an element of `l`
///   and false otherwise;
/// - `f is T` is false and `f in [..]` false; anything else is an error.
public struct QueryConstraint: Sendable, Hashable {
    /// A range bound from a `<`, `<=`, `>`, `>=` filter (or the value of an `==` filter).
    public struct Bound: Sendable, Hashable {
        /// The filter's value.
        public var value: Value
        /// Whether the value itself is inside the range (`<=`, `>=`, `==`).
        public var inclusive: Bool

        /// A bound at `value`, inclusive or not.
        public init(value: Value, inclusive: Bool) {
            self.value = value
            self.inclusive = inclusive
        }
    }

    /// Values of `==` filters on the field (beside other filters).
    public var equal: [Value] = []
    /// Lower bounds (`>`, `>=`, and `==` values).
    public var lower: [Bound] = []
    /// Upper bounds (`<`, `<=`, and `==` values).
    public var upper: [Bound] = []
    /// Values the field cannot have (`!=`, `not-in`).
    public var excluded: [Value] = []
    /// Elements an array field holds (`array-contains`).
    public var contains: [Value] = []

    /// An empty constraint (the field exists, nothing else is known).
    public init() {}

    /// `constraint op value` (`op` one of `<`, `<=`, `>`, `>=`, `==`, `!=`): `true` when the
    /// constraint proves it, `nil` when it does not (the caller reports an error).
    public func proves(_ op: String, _ value: Value) -> Bool? {
        switch op {
        case "==":
            return equal.contains { Self.sameValue($0, value) } ? true : nil
        case "!=":
            if case .null = value { return excludesNull ? true : nil }
            if excluded.contains(where: { Self.sameValue($0, value) }) { return true }
            // An equality with another value of a comparable type (`== true` proves `!= false`,
            // `== 5.0` proves `!= 5`, but `== 5` does not prove `!= 5.0`, as for bounds).
            if equal.contains(where: { Self.comparable($0, value) && !Self.sameValue($0, value) }) { return true }
            guard Self.isOrdered(value) else { return nil }
            // The bound must speak for the value's type (a float bound says nothing about an int).
            if lower.contains(where: { bound in Self.order(bound.value, value).map { $0 > 0 || ($0 == 0 && !bound.inclusive) } ?? false }) { return true }
            if upper.contains(where: { bound in Self.order(bound.value, value).map { $0 < 0 || ($0 == 0 && !bound.inclusive) } ?? false }) { return true }
            return nil
        case ">", ">=":
            guard Self.isOrdered(value) else { return nil }
            let strict = op == ">"
            return lower.contains { bound in
                guard let o = Self.order(bound.value, value) else { return false }
                return o > 0 || (o == 0 && (!strict || !bound.inclusive))
            } ? true : nil
        case "<", "<=":
            guard Self.isOrdered(value) else { return nil }
            let strict = op == "<"
            return upper.contains { bound in
                guard let o = Self.order(bound.value, value) else { return false }
                return o < 0 || (o == 0 && (!strict || !bound.inclusive))
            } ? true : nil
        default:
            return nil
        }
    }

    /// Whether the filters rule out null: a `!=` or `not-in` (Firestore's inequalities skip
    /// null), an `array-contains`, an equality with a value, or a bound of an ordered type (a
    /// range on booleans does not).
    var excludesNull: Bool {
        !excluded.isEmpty || !contains.isEmpty || equal.contains { !$0.isNull }
            || (lower + upper).contains { Self.isOrdered($0.value) }
    }

    /// `element in constraint`: `true` when an `array-contains` holds it, `nil` (an error)
    /// otherwise.
    public func containsElement(_ element: Value) -> Bool? {
        if case .null = element { return nil }
        return contains.contains(where: { Self.sameValue($0, element) }) ? true : nil
    }

    /// Values of one type, or two numbers.
    static func comparable(_ a: Value, _ b: Value) -> Bool {
        if case .null = a { return false }
        if a.numberValue != nil, b.numberValue != nil { return true }
        return a.typeName == b.typeName
    }

    static func isOrdered(_ value: Value) -> Bool {
        switch value {
        case .int, .float, .string, .timestamp, .bytes, .duration: true
        default: false
        }
    }

    /// The order of a bound against the rule's value, when the bound can speak for it: same
    /// type, or an int bound against a float value (the emulator widens the bound, never the
    /// rule's int).
    static func order(_ bound: Value, _ value: Value) -> Int? {
        func cmp<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (bound, value) {
        case let (.int(a), .int(b)): return cmp(a, b)
        case let (.float(a), .float(b)): return a.isNaN || b.isNaN ? nil : cmp(a, b)
        case let (.int(a), .float(b)): return b.isNaN ? nil : cmp(Double(a), b)
        case let (.string(a), .string(b)):
            return a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : (a.utf16.elementsEqual(b.utf16) ? 0 : 1)
        case let (.timestamp(a), .timestamp(b)): return cmp(a, b)
        case let (.duration(a), .duration(b)): return cmp(a, b)
        case let (.bytes(a), .bytes(b)): return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    /// A filter's value standing for the rule's: as for bounds, an int speaks for an equal float.
    static func sameValue(_ filter: Value, _ value: Value) -> Bool {
        switch (filter, value) {
        case let (.int(a), .float(b)): return Double(a) == b
        case (.float, .int): return false
        default: return filter == value
        }
    }
}
