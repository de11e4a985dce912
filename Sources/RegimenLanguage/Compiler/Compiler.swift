import OrderedCollections
/// Compiles a parsed expression against an environment: resolves every name to a slot, function
/// or method id, checks arity and the types it can know, and reports every problem it finds with
/// the location of the offending character.
struct Compiler {
    /// Names and functions visible to the expression being compiled.
    struct Scope {
        var globals: [String: Int]
        /// Projected variables (see ``Projection``), by the slot of the variable.
        var projections: [Int: ProjectionSlots] = [:]
        var functions: [String: Int]
        var functionArity: [Int: Int]
        var hosts: [String: (index: Int, arity: ClosedRange<Int>)]
        /// Declared types of variables, by slot; an undeclared variable is `dynamic`.
        var globalTypes: [Int: StaticType] = [:]
        /// Declared records and enumerations, by slot (see ``ExpressionType/fields``).
        var globalShapes: [Int: ExpressionType] = [:]
    }

    let scope: Scope
    let source: SourceText
    var diagnostics = DiagnosticCollector()
    /// Parameters and lets of the function being compiled.
    var locals: [String: Int] = [:]
    var usedLocals: Set<Int> = []
    /// User functions this expression calls (for the call graph).
    var calledFunctions: Set<Int> = []
    /// Variables the expression reads (so evaluation can check they are bound).
    var usedGlobals: Set<Int> = []
    /// String literals compared with a value of a named vocabulary, for the loader to check.
    var vocabularyUses: [VocabularyUse] = []
    /// Variables compared with a declared enumeration or vocabulary, for the loader to check
    /// the strings their own expressions are made of (a fact's list of ids).
    var comparedNames: [ComparedName] = []

    mutating func error(_ id: String, _ message: String, _ span: SourceSpan, notes: [String] = []) {
        diagnostics.append(.error(id, message, at: location(span), notes: notes))
    }

    mutating func warning(_ id: String, _ message: String, _ span: SourceSpan) {
        diagnostics.append(.warning(id, message, at: location(span)))
    }

    func location(_ span: SourceSpan) -> SourceLocation? {
        source.location(ofScalarOffset: span.start)
    }

    /// The projected field `base.name` reads, when `base` is a projected variable or field.
    private func projectedField(_ base: Node, _ name: String) -> ProjectedField? {
        let slot: Int
        switch base {
        case .global(let s, _): slot = s
        case .projected(_, _, let field, _): slot = field.slot
        default: return nil
        }
        return scope.projections[slot]?.fields[name]
    }

    mutating func compile(_ expr: Expr) -> (Node, StaticType) {
        switch expr {
        case .literal(let value, _):
            return (.constant(value), StaticType.of(value))

        case .identifier(let name, let span):
            if let slot = locals[name] {
                usedLocals.insert(slot)
                return (.local(slot, span), .dynamic)
            }
            if let slot = scope.globals[name] {
                usedGlobals.insert(slot)
                return (.global(slot, span), scope.globalTypes[slot] ?? .dynamic)
            }
            if Builtin.namespaces.contains(name) {
                error("expr.namespace-value", "'\(name)' is a namespace of functions, not a value", span)
            } else {
                let candidates = Array(locals.keys) + Array(scope.globals.keys)
                error("expr.unknown-name", "unknown name '\(name)'", span, notes: Suggestions.didYouMean(name, candidates))
            }
            return (.constant(.null), .dynamic)

        case .member(let base, let name, let span):
            let (node, type) = compile(base)
            if type.isKnown && type != .map && type != .null {
                error("expr.no-field", "a value of type \(type.rawValue) has no field '\(name)'", span)
            }
            var fieldType = StaticType.dynamic
            if let fields = declaredShape(base)?.fields {
                guard let field = fields[name] else {
                    // At the field's own name: the span of `a.b` starts at `a`.
                    let nameSpan = SourceSpan(start: Swift.max(span.start, span.end - name.unicodeScalars.count), end: span.end)
                    error("expr.unknown-field", "\(Self.path(of: base) ?? "the record") has no field '\(name)'", nameSpan,
                          notes: Suggestions.didYouMean(name, Array(fields.keys)))
                    return (.constant(.null), .dynamic)
                }
                fieldType = field.staticType
            }
            if let field = projectedField(node, name) { return (.projected(node, name, field, span), fieldType) }
            return (.member(node, name, span), fieldType)

        case .index(let base, let index, let span):
            let (baseNode, baseType) = compile(base)
            let (indexNode, indexType) = compile(index)
            if baseType.isKnown && ![.map, .list, .path, .string, .null].contains(baseType) {
                error("expr.not-indexable", "a value of type \(baseType.rawValue) cannot be indexed", span)
            } else if baseType == .list || baseType == .path || baseType == .string, indexType.isKnown, indexType != .int, indexType != .number {
                error("expr.index-type", "a \(baseType.rawValue) index must be an int, not \(indexType.rawValue)", index.span)
            } else if baseType == .map, indexType.isKnown, indexType != .string {
                error("expr.index-type", "a map key must be a string, not \(indexType.rawValue)", index.span)
            }
            return (.index(baseNode, indexNode, span), baseType == .string || baseType == .path ? .string : .dynamic)

        case .slice(let base, let from, let to, let span):
            let (baseNode, baseType) = compile(base)
            let fromNode = from.map { compile($0).0 }
            let toNode = to.map { compile($0).0 }
            if baseType.isKnown && baseType != .list && baseType != .string {
                error("expr.not-sliceable", "a value of type \(baseType.rawValue) cannot be sliced", span)
            }
            return (.slice(baseNode, fromNode, toNode, span), baseType)

        case .unary(let op, let operand, let span):
            let (node, type) = compile(operand)
            switch op {
            case .not:
                if type.isKnown && type != .bool {
                    error("expr.type-mismatch", "'!' needs a bool, not \(type.rawValue)", span)
                }
                return (.not(node, span), .bool)
            case .negate:
                if type.isKnown && !type.isNumber && type != .duration {
                    error("expr.type-mismatch", "'-' needs a number, not \(type.rawValue)", span)
                }
                return (.negate(node, span), type)
            }

        case .binary(let op, let lhs, let rhs, let span):
            return compileBinary(op, lhs, rhs, span)

        case .isType(let operand, let typeName, let span):
            let (node, _) = compile(operand)
            guard let test = TypeTest(rawValue: typeName) else {
                error("expr.unknown-type", "unknown type '\(typeName)'", span,
                      notes: Suggestions.didYouMean(typeName, TypeTest.allCases.map(\.rawValue)))
                return (.constant(.bool(false)), .bool)
            }
            return (.isType(node, test, span), .bool)

        case .ternary(let condition, let whenTrue, let whenFalse, let span):
            let (c, ct) = compile(condition)
            if ct.isKnown && ct != .bool {
                error("expr.type-mismatch", "the condition of '?:' must be a bool, not \(ct.rawValue)", condition.span)
            }
            let (t, tt) = compile(whenTrue)
            let (f, ft) = compile(whenFalse)
            return (.ternary(c, t, f, span), tt == ft ? tt : .dynamic)

        case .list(let items, let span):
            let nodes = items.map { compile($0).0 }
            // A literal of constants is built once, not on every evaluation.
            let constants = nodes.compactMap { node -> Value? in if case .constant(let v) = node { v } else { nil } }
            if constants.count == nodes.count { return (.constant(.list(constants)), .list) }
            return (.list(nodes, span), .list)

        case .map(let entries, let span):
            var compiled: [(key: Node, value: Node)] = []
            for entry in entries {
                let (k, kt) = compile(entry.key)
                if kt.isKnown && kt != .string {
                    error("expr.map-key", "a map key must be a string, not \(kt.rawValue)", entry.key.span)
                }
                compiled.append((k, compile(entry.value).0))
            }
            var folded = Value.Map()
            for entry in compiled {
                guard case .constant(.string(let key)) = entry.key, case .constant(let value) = entry.value else {
                    return (.map(compiled, span), .map)
                }
                folded[key] = value
            }
            return (.constant(.map(folded)), .map)

        case .path(let parts, let span):
            let pieces = parts.map { part -> PathPiece in
                switch part {
                case .segment(let s): return .segment(s)
                case .interpolation(let e): return .interpolation(compile(e).0)
                }
            }
            return (.path(pieces, span), .path)

        case .call(let callee, let arguments, let span):
            return compileCall(callee, arguments, span)
        }
    }

    private mutating func compileBinary(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ span: SourceSpan) -> (Node, StaticType) {
        let (l, lt) = compile(lhs)
        let (r, rt) = compile(rhs)
        switch op {
        case .and, .or:
            // The emulator compiles these and decides at run time (`1 || true` is true), so warn only.
            for (side, type) in [(lhs, lt), (rhs, rt)] where type.isKnown && type != .bool {
                warning("expr.non-bool-operand", "'\(op.rawValue)' expects bool operands, not \(type.rawValue)", side.span)
            }
            return (op == .and ? .and(l, r, span) : .or(l, r, span), .bool)
        case .equal, .notEqual:
            checkValue(lhs, against: rhs)
            checkValue(rhs, against: lhs)
            noteComparison(lhs, against: rhs)
            noteComparison(rhs, against: lhs)
            return (.equals(l, r, negated: op == .notEqual, span), .bool)
        case .in:
            // `'knee' in profile.injuries` and `profile.sex in ['male', 'female']`.
            checkValue(lhs, against: rhs)
            if case .list(let items, _) = rhs {
                for item in items { checkValue(item, against: lhs) }
            }
            // `x in fact` (each of the fact's strings is an x) and `fact in item.goals`.
            noteComparison(rhs, against: lhs)
            noteComparison(lhs, against: rhs)
            if rt.isKnown && ![.list, .set, .map].contains(rt) {
                warning("expr.type-mismatch", "'in' needs a list, set or map on the right, not \(rt.rawValue)", rhs.span)
            }
            return (.contains(l, r, span), .bool)
        case .less, .lessEqual, .greater, .greaterEqual:
            if !StaticType.comparable(lt, rt) {
                error("expr.type-mismatch", "cannot compare \(lt.rawValue) \(op.rawValue) \(rt.rawValue)", span)
            }
            return (.compare(op, l, r, span), .bool)
        case .add, .subtract, .multiply, .divide, .remainder:
            guard let result = StaticType.arithmetic(op, lt, rt) else {
                let hint = (lt == .list && rt == .list && op == .add) ? ["use a.concat(b) to join lists"] : []
                error("expr.type-mismatch", "unsupported operation: \(lt.rawValue) \(op.rawValue) \(rt.rawValue)", span, notes: hint)
                return (.arithmetic(op, l, r, span), .dynamic)
            }
            return (.arithmetic(op, l, r, span), result)
        }
    }

    /// The declared record or enumeration `expr` reads: a declared variable (not shadowed by a
    /// local) or a field of one. Bounded by the expression's height, which the parser limits.
    func declaredShape(_ expr: Expr) -> ExpressionType? {
        switch expr {
        case .identifier(let name, _):
            guard locals[name] == nil, let slot = scope.globals[name] else { return nil }
            return scope.globalShapes[slot]
        case .member(let base, let name, _):
            return declaredShape(base)?.fields?[name]
        default:
            return nil
        }
    }

    /// `profile.sex` for a variable or a chain of fields, for messages.
    static func path(of expr: Expr) -> String? {
        switch expr {
        case .identifier(let name, _): name
        case .member(let base, let name, _): path(of: base).map { "\($0).\(name)" }
        default: nil
        }
    }

    /// A string literal compared with a declared enumeration must be one of its values: reported
    /// at the literal, with a suggestion.
    private mutating func checkValue(_ literal: Expr, against other: Expr) {
        guard case .literal(.string(let text), let span) = literal, let shape = declaredShape(other) else { return }
        if let vocabulary = shape.vocabulary {
            vocabularyUses.append(VocabularyUse(vocabulary: vocabulary, value: text, subject: Self.path(of: other) ?? vocabulary, location: location(span)))
        }
        guard let values = shape.values, !values.contains(text) else { return }
        error("expr.unknown-value", "'\(text)' is not a value of \(Self.path(of: other) ?? "the variable") (\(values.sorted().joined(separator: ", ")))", span,
              notes: Suggestions.didYouMean(text, values))
    }

    /// A variable (not a local) compared with a declared enumeration or vocabulary: noted, so the
    /// loader checks the strings the variable's own expression is made of (a fact's list).
    private mutating func noteComparison(_ side: Expr, against other: Expr) {
        guard case .identifier(let name, let span) = side, locals[name] == nil, scope.globals[name] != nil,
              let shape = declaredShape(other), shape.values != nil || shape.vocabulary != nil else { return }
        comparedNames.append(ComparedName(name: name, type: shape, subject: Self.path(of: other) ?? name, location: location(span)))
    }

    private mutating func compileArguments(_ arguments: [Expr]) -> [Node] {
        arguments.map { compile($0).0 }
    }

    private mutating func compileCall(_ callee: Expr, _ arguments: [Expr], _ span: SourceSpan) -> (Node, StaticType) {
        switch callee {
        case .identifier(let name, let nameSpan) where locals[name] == nil:
            let args = compileArguments(arguments)
            if let index = scope.functions[name] {
                let arity = scope.functionArity[index] ?? 0
                if arguments.count != arity {
                    error("expr.arity", "function '\(name)' takes \(arity) argument\(arity == 1 ? "" : "s"), not \(arguments.count)", span)
                }
                calledFunctions.insert(index)
                return (.call(index, args, span), .dynamic)
            }
            if let host = scope.hosts[name] {
                if !host.arity.contains(arguments.count) {
                    error("expr.arity", "function '\(name)' takes \(Self.describe(host.arity)) arguments, not \(arguments.count)", span)
                }
                return (.host(host.index, args, span), .dynamic)
            }
            if let builtin = Builtin(rawValue: name) {
                return builtinCall(builtin, args, arguments.count, span)
            }
            if name == "bool" {
                warning("expr.missing-function", "function 'bool' is documented but the emulator reports it as not found; it always errors", nameSpan)
                return (.missingFunction(name, args, span), .dynamic)
            }
            let candidates = Array(scope.functions.keys) + Array(scope.hosts.keys) + ["int", "float", "string", "path"]
            error("expr.unknown-function", "unknown function '\(name)'", nameSpan, notes: Suggestions.didYouMean(name, candidates))
            return (.constant(.null), .dynamic)

        case .member(.identifier(let namespace, _), let name, let nameSpan)
            where Builtin.namespaces.contains(namespace) && locals[namespace] == nil && scope.globals[namespace] == nil:
            let args = compileArguments(arguments)
            let qualified = "\(namespace).\(name)"
            if let builtin = Builtin(rawValue: qualified) {
                return builtinCall(builtin, args, arguments.count, span)
            }
            if qualified == "math.isInfinite" {
                warning("expr.missing-function", "'math.isInfinite' is documented but the emulator reports it as not found; it always errors", nameSpan)
                return (.missingFunction(qualified, args, span), .dynamic)
            }
            let known = Builtin.allCases.map(\.rawValue).filter { $0.hasPrefix(namespace + ".") }
            error("expr.unknown-function", "unknown function '\(qualified)'", nameSpan, notes: Suggestions.didYouMean(qualified, known))
            return (.constant(.null), .dynamic)

        case .member(let receiver, let name, _):
            let (receiverNode, receiverType) = compile(receiver)
            let args = compileArguments(arguments)
            guard let method = Method(rawValue: name) else {
                error("expr.unknown-method", "unknown method '\(name)'", span,
                      notes: Suggestions.didYouMean(name, Method.allCases.map(\.rawValue)))
                return (.constant(.null), .dynamic)
            }
            if receiverType.isKnown && receiverType != .null && !method.receivers.contains(receiverType.rawValue) {
                error("expr.no-method", "a value of type \(receiverType.rawValue) has no method '\(name)'", span)
            }
            checkPatternLiteral(method, arguments)
            if !method.arity.contains(arguments.count) {
                error("expr.arity", "method '\(name)' takes \(Self.describe(method.arity)) argument\(method.arity == 1...1 ? "" : "s"), not \(arguments.count)", span)
            }
            return (.method(receiverNode, method, args, span), method.resultType)

        default:
            error("expr.not-callable", "this expression cannot be called", callee.span)
            return (.constant(.null), .dynamic)
        }
    }

    private mutating func builtinCall(_ builtin: Builtin, _ args: [Node], _ count: Int, _ span: SourceSpan) -> (Node, StaticType) {
        if !builtin.arity.contains(count) {
            error("expr.arity", "function '\(builtin.rawValue)' takes \(Self.describe(builtin.arity)) argument\(builtin.arity == 1...1 ? "" : "s"), not \(count)", span)
        }
        return (.builtin(builtin, args, span), builtin.resultType)
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }
}

/// "did you mean" notes by edit distance.
package enum Suggestions {
    static func didYouMean(_ name: String, _ candidates: [String]) -> [String] {
        guard let best = closest(name, candidates) else { return [] }
        return ["did you mean '\(best)'?"]
    }

    package static func closest(_ name: String, _ candidates: [String]) -> String? {
        let threshold = Swift.max(1, name.count / 3)
        var best: (String, Int)?
        for candidate in Set(candidates) {
            let d = distance(name.lowercased(), candidate.lowercased())
            if d <= threshold, best.map({ d < $0.1 || (d == $0.1 && candidate < $0.0) }) ?? true {
                best = (candidate, d)
            }
        }
        return best?.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
