import Foundation
import RegimenLanguage
import RegimenSecurity

/// The names an expression can see: wildcard variables, function parameters and `let`s, and
/// the functions declared in this block and the blocks around it.
final class LexicalScope {
    let parent: LexicalScope?
    var variables: [String: SymbolicValue]
    var functions: [String: FunctionDeclaration]

    init(parent: LexicalScope?, variables: [String: SymbolicValue] = [:], functions: [FunctionDeclaration] = []) {
        self.parent = parent
        self.variables = variables
        self.functions = Dictionary(functions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func variable(_ name: String) -> SymbolicValue? { variables[name] ?? parent?.variable(name) }

    func function(_ name: String) -> (FunctionDeclaration, LexicalScope)? {
        if let f = functions[name] { return (f, self) }
        return parent?.function(name)
    }
}

/// Encodes one rules-language expression as an SMT term of sort `V`, reading the request through
/// a ``SymbolicEncoder``. Functions are inlined (errors are values, so evaluating a `let` eagerly
/// gives the lazy result); constructs without an exact encoding become fresh values, recorded.
struct ExpressionEncoder {
    let encoder: SymbolicEncoder
    /// Calls nest at most this deep (Firestore's limit is 20); deeper calls are abstracted.
    static let maxCallDepth = 20

    /// The V term of `text` evaluated in `scope`.
    func encode(_ expression: PolicyExpression, in scope: LexicalScope, depth: Int = 0) -> String {
        guard case .success(let expr) = Parser.parse(expression.text) else {
            return encoder.fresh("an expression the parser rejects", at: expression.location?.description ?? "")
        }
        let context = Context(source: expression.source, scope: scope, depth: depth)
        return term(value(expr, context), context, expr.span)
    }

    struct Context {
        var source: SourceText
        var scope: LexicalScope
        var depth: Int

        func place(_ span: SourceSpan) -> String { source.location(ofScalarOffset: span.start)?.description ?? "" }
    }

    // MARK: values to terms

    /// The V term of a value (a map, list or document becomes an opaque id).
    func term(_ v: SymbolicValue, _ c: Context, _ span: SourceSpan) -> String {
        switch v {
        case .term(let t): return t
        case .string(let s): return "(vstr \(SMTPrelude.string(s)))"
        case .map(let ref, let error):
            if ref.path.isEmpty { return "(ite \(error) verr (vmap \(encoder.rootID(ref.root))))" }
            let f = encoder.field(ref)
            return "(ite (or \(error) (is-vnone \(f))) verr \(f))"
        case .doc(let doc, let error):
            return "(ite \(error) verr (ite \(doc.exists) (vmap \(encoder.rootID("document " + doc.data.root))) vnull))"
        case .auth:
            return "(ite \(SymbolicEncoder.auth) (vmap \(encoder.rootID("auth"))) vnull)"
        case .request: return "(vmap \(encoder.rootID("request")))"
        case .list(let items):
            let terms = items.map { term($0, c, span) }
            let id = encoder.opaqueID(content: "list " + terms.joined(separator: " "))
            return terms.isEmpty ? "(vlist \(id))" : "(ite (or \(terms.map { "(is-verr \($0))" }.joined(separator: " "))) verr (vlist \(id)))"
        case .literalMap(let entries):
            let terms = entries.map { term($0.1, c, span) }
            let id = encoder.opaqueID(content: "map " + zip(entries, terms).map { "\(SMTPrelude.string($0.0)) \($1)" }.joined(separator: " "))
            return terms.isEmpty ? "(vmap \(id))" : "(ite (or \(terms.map { "(is-verr \($0))" }.joined(separator: " "))) verr (vmap \(id)))"
        case .path(let segments):
            return "(vother \(encoder.opaqueID(content: "path " + segments.map { term($0, c, span) }.joined(separator: " "))))"
        case .namespace(let name): return encoder.fresh("the namespace '\(name)' as a value", at: c.place(span))
        case .listAsSet(_, let set): return set
        case .choice(let error, let condition, let ifTrue, let ifFalse):
            return "(ite \(error) verr (ite \(condition) \(term(ifTrue, c, span)) \(term(ifFalse, c, span))))"
        case .mapValues(let ref, let error):
            let name = "values of \(([ref.root] + ref.path).joined(separator: "."))"
            let f = encoder.abstractFunction("values() as a list", at: c.place(span), key: name, inputs: [])
            return "(ite \(error) verr (ite (is-vlist \(f)) \(f) (vlist \(encoder.opaqueID(content: name)))))"
        case .mapDiff(let a, let b, let error):
            let name = "diff of \(([a.root] + a.path).joined(separator: ".")) and \(([b.root] + b.path).joined(separator: "."))"
            return "(ite \(error) verr (vother \(encoder.opaqueID(content: name))))"
        case .mapDiffFromEmpty(let a, let error):
            let name = "diff of \(([a.root] + a.path).joined(separator: ".")) and {}"
            return "(ite \(error) verr (vother \(encoder.opaqueID(content: name))))"
        case .affectedKeys(let a, let b, let error):
            // A set, one per pair of maps (the request is fixed in a query); what is asked of it
            // beyond hasOnly/hasAll/hasAny of literal keys is abstract.
            let name = "affected keys of \(([a.root] + a.path).joined(separator: ".")) and \(([b.root] + b.path).joined(separator: "."))"
            return "(ite \(error) verr (vother \(encoder.opaqueID(content: name))))"
        case .keys(let ref, let error):
            // The keys of one map of the request are one list (the request is fixed in a query).
            let name = ([ref.root] + ref.path).joined(separator: ".")
            let f = encoder.abstractFunction("keys() as a list", at: c.place(span), key: "keys of \(name)", inputs: [])
            return "(ite \(error) verr (ite (is-vlist \(f)) \(f) (vlist \(encoder.opaqueID(content: "keys of \(name)")))))"
        }
    }

    /// SMT Bool: reading `v` as a map errors (it is not a map, or reading it errors).
    func mapError(_ v: SymbolicValue) -> String? {
        switch v {
        case .map(let ref, let error):
            if ref.path.isEmpty { return error }
            let f = encoder.field(ref)
            return "(or \(error) (not (is-vmap \(f))))"
        default: return nil
        }
    }

    // MARK: expressions

    func value(_ expr: Expr, _ c: Context) -> SymbolicValue {
        switch expr {
        case .literal(let v, let span): return literal(v, c, span)
        case .identifier(let name, let span):
            if let bound = c.scope.variable(name) { return bound }
            switch name {
            case "request": return .request
            case "resource": return resourceDocument()
            case "math", "hashing", "timestamp", "duration", "latlng", "string", "int", "float": return .namespace(name)
            default: return .term(encoder.fresh("the unknown name '\(name)'", at: c.place(span)))
            }
        case .member(let base, let name, let span): return member(value(base, c), name, c, span)
        case .index(let base, let index, let span): return self.index(value(base, c), value(index, c), c, span)
        case .slice(_, _, _, let span): return .term(encoder.fresh("a slice [a:b]", at: c.place(span)))
        case .call(let callee, let arguments, let span): return call(callee, arguments, c, span)
        case .unary(let op, let operand, let span):
            let t = term(value(operand, c), c, span)
            switch op {
            case .not: return .term("(vnot \(t))")
            case .negate:
                let f = encoder.abstractFunction("unary minus on a float that is not finite", at: c.place(span), key: "negate", inputs: [t])
                return .term("(ite (is-verr \(t)) verr (ite (is-vint \(t)) (iop (- (vi \(t)))) (ite (is-vflt \(t)) (vflt (- (vf \(t)))) (ite (is-vspecial \(t)) \(f) verr))))")
            }
        case .binary(let op, let lhs, let rhs, let span): return binary(op, lhs, rhs, c, span)
        case .isType(let operand, let typeName, let span): return isType(value(operand, c), typeName, c, span)
        case .ternary(let condition, let whenTrue, let whenFalse, let span):
            let cond = term(value(condition, c), c, span)
            let t = value(whenTrue, c), f = value(whenFalse, c)
            if case .string(let a) = t, case .string(let b) = f, a == b { return t }
            // Both branches keep their structure (`resource == null ? {} : resource.data` stays
            // a map literal or a map read field by field, for `diff()` and the like); a condition
            // that is not a Bool is the error.
            return .choice(error: "(not (is-vbool \(cond)))", condition: "(istrue \(cond))", ifTrue: t, ifFalse: f)
        case .list(let items, _): return .list(items.map { value($0, c) })
        case .map(let entries, let span):
            var out: [(String, SymbolicValue)] = []
            for entry in entries {
                guard case .string(let key) = value(entry.key, c) else {
                    return .term(encoder.fresh("a map literal with computed keys", at: c.place(span)))
                }
                out.append((key, value(entry.value, c)))
            }
            return .literalMap(out)
        case .path(let parts, _):
            var segments: [SymbolicValue] = []
            for part in parts {
                switch part {
                case .segment(let text):
                    for piece in text.split(separator: "/") { segments.append(.string(String(piece))) }
                case .interpolation(let inner): segments.append(value(inner, c))
                }
            }
            return .path(segments)
        }
    }

    func literal(_ v: Value, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        switch v {
        case .null: return .term("vnull")
        case .bool(let b): return .term("(vbool \(b))")
        case .int(let i): return .term(i < 0 ? "(vint (- \(i.magnitude)))" : "(vint \(i))")
        case .float(let d):
            if d.isNaN { return .term("(vspecial 0)") }
            if d.isInfinite { return .term(d > 0 ? "(vspecial 1)" : "(vspecial 2)") }
            return .term("(vflt \(SMTReal.literal(d)))")
        case .string(let s): return .string(s)
        default: return .term(encoder.fresh("a literal of type \(v.typeName)", at: c.place(span)))
        }
    }

    func resourceDocument() -> SymbolicValue {
        let id = encoder.segments.last.map { SymbolicEncoder.termOfSegment($0) }
        return .doc(DocRef(exists: SymbolicEncoder.resourceExists, data: MapRef(root: "old", path: []), id: id), error: "false")
    }

    /// `base[index]`: a field read when the index is a known key of a map read field by field.
    func index(_ base: SymbolicValue, _ index: SymbolicValue, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        if case .choice(let error, let condition, let ifTrue, let ifFalse) = base {
            return .choice(error: error, condition: condition, ifTrue: self.index(ifTrue, index, c, span), ifFalse: self.index(ifFalse, index, c, span))
        }
        if case .string(let key) = index, mapError(base) != nil { return member(base, key, c, span) }
        let indexTerm = term(index, c, span)
        return .term(encoder.abstractFunction("an index [] with a computed key or on a list", at: c.place(span), key: "index", inputs: [term(base, c, span), indexTerm]))
    }

    func member(_ base: SymbolicValue, _ name: String, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        switch base {
        case .request:
            switch name {
            case "auth": return .auth
            case "time": return .term("(vts \(SymbolicEncoder.time))")
            case "method": return .string(encoder.method.rawValue)
            case "resource":
                switch encoder.method {
                case .get: return .term("verr")
                case .delete: return .term("vnull")
                case .create, .update:
                    let id = encoder.segments.last.map { SymbolicEncoder.termOfSegment($0) }
                    return .doc(DocRef(exists: "true", data: MapRef(root: "new", path: []), id: id), error: "false")
                }
            default: return .term(encoder.abstractFunction("request.\(name)", at: c.place(span), key: "request.\(name)", inputs: []))
            }
        case .auth:
            switch name {
            case "uid": return .term("(ite \(SymbolicEncoder.auth) (vstr \(SymbolicEncoder.uid)) verr)")
            case "token": return .map(MapRef(root: "token", path: []), error: "(not \(SymbolicEncoder.auth))")
            default: return .term("verr")
            }
        case .doc(let doc, let error):
            let missing = "(or \(error) (not \(doc.exists)))"
            switch name {
            case "data": return .map(doc.data, error: missing)
            case "id":
                if let id = doc.id { return .term("(ite \(missing) verr \(id))") }
                return .term(encoder.fresh("the id of a document read with get()", at: c.place(span)))
            default:
                let document = ([doc.data.root] + doc.data.path).joined(separator: ".")
                return .term(encoder.abstractFunction("the document property '\(name)'", at: c.place(span), key: "property \(name) of \(document)", inputs: []))
            }
        case .map(let ref, _):
            guard let error = mapError(base) else { return .term("verr") }
            return .map(ref.child(name), error: error)
        case .literalMap(let entries):
            if let entry = entries.first(where: { $0.0 == name }) { return entry.1 }
            return .term("verr")
        case .namespace(let space):
            return .term(encoder.abstractFunction("\(space).\(name)", at: c.place(span), key: "\(space).\(name)", inputs: []))
        case .term(let t):
            let f = encoder.abstractFunction("a field of a computed map", at: c.place(span), key: "field \(name)", inputs: [t])
            return .term("(ite (is-vmap \(t)) \(f) verr)")
        case .choice(let error, let condition, let ifTrue, let ifFalse):
            return .choice(error: error, condition: condition, ifTrue: member(ifTrue, name, c, span), ifFalse: member(ifFalse, name, c, span))
        case .string, .list, .path, .keys, .mapDiff, .mapDiffFromEmpty, .affectedKeys, .listAsSet, .mapValues: return .term("verr")
        }
    }

    func binary(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        let l = value(lhs, c), r = value(rhs, c)
        switch op {
        case .and: return .term("(vand \(term(l, c, span)) \(term(r, c, span)))")
        case .or: return .term("(vor \(term(l, c, span)) \(term(r, c, span)))")
        case .equal, .notEqual:
            let eq = equality(l, r, c, span)
            return .term(op == .equal ? eq : "(ite (is-verr \(eq)) verr (vnot \(eq)))")
        case .less: return .term("(vlt \(term(l, c, span)) \(term(r, c, span)))")
        case .lessEqual: return .term("(vle \(term(l, c, span)) \(term(r, c, span)))")
        case .greater: return .term("(vlt \(term(r, c, span)) \(term(l, c, span)))")
        case .greaterEqual: return .term("(vle \(term(r, c, span)) \(term(l, c, span)))")
        case .in: return .term(contains(l, r, c, span))
        case .add, .subtract, .multiply, .divide, .remainder: return .term(arithmetic(op, term(l, c, span), term(r, c, span), c, span))
        }
    }

    /// `==`: null tests of `request.auth` and documents are exact; the rest compares V terms.
    func equality(_ l: SymbolicValue, _ r: SymbolicValue, _ c: Context, _ span: SourceSpan) -> String {
        func isNullLiteral(_ v: SymbolicValue) -> Bool { if case .term("vnull") = v { true } else { false } }
        if case .string(let a) = l, case .string(let b) = r { return "(vbool \(a == b))" }
        for (object, other) in [(l, r), (r, l)] where isNullLiteral(other) {
            switch object {
            case .auth: return "(vbool (not \(SymbolicEncoder.auth)))"
            case .doc(let doc, let error): return "(ite \(error) verr (vbool (not \(doc.exists))))"
            default: break
            }
        }
        return "(veq \(term(l, c, span)) \(term(r, c, span)))"
    }

    func contains(_ element: SymbolicValue, _ container: SymbolicValue, _ c: Context, _ span: SourceSpan) -> String {
        let e = term(element, c, span)
        switch container {
        case .choice(let error, let condition, let ifTrue, let ifFalse):
            return "(ite \(error) verr (ite \(condition) \(contains(element, ifTrue, c, span)) \(contains(element, ifFalse, c, span))))"
        case .list(let items):
            let terms = items.map { term($0, c, span) }
            guard !terms.isEmpty else { return "(ite (is-verr \(e)) verr (vbool false))" }
            let anyError = terms.map { "(is-verr \($0))" }.joined(separator: " ")
            // A list compares its elements strictly: `1.0 in [1]` is false although `1.0 == 1`.
            let anyEqual = terms.map { "(istrue (vseq \(e) \($0)))" }.joined(separator: " ")
            return "(ite (or (is-verr \(e)) \(anyError)) verr (vbool (or \(anyEqual))))"
        case .map(let ref, let error):
            guard let mapError = mapError(container) else { return "verr" }
            if case .string(let key) = element {
                let keyTest = "(vbool (not (is-vnone \(encoder.field(ref.child(key))))))"
                if ref.path.isEmpty { return "(ite \(mapError) verr \(keyTest))" }
                // A field read from data may hold a list or a set as well as a map: `'x' in
                // data.tags` is then membership, not a key test (reading it as a key test proved
                // `'a' in data.x` equivalent to `data.x.keys().hasAny(['a'])`, which errors on a list).
                let field = encoder.field(ref)
                let inSet = encoder.abstractFunction("'in' on a set read from data", at: c.place(span), key: "in", inputs: [e, field])
                let membership = listMembership(e, field, c, span)
                return "(ite (or \(error) (is-vnone \(field))) verr (ite (is-vmap \(field)) \(keyTest) (ite (is-vlist \(field)) \(membership) (ite (is-vother \(field)) \(inSet) verr))))"
            }
            // The concrete attempt writes a map with the keys the rules read (and unread keys
            // named apart): there, a computed key is one of the read keys present.
            let readKeys = encoder.fieldVariables.filter { $0.ref.root == ref.root && $0.ref.path.count == ref.path.count + 1 && $0.ref.path.starts(with: ref.path) }
            let amongRead = readKeys.compactMap { variable in variable.ref.path.last.map { "(and (= \(e) (vstr \(SMTPrelude.string($0)))) (not (is-vnone \(variable.name))))" } }
            let approximation = EvaluatorApproximation.Guarded(when: ref.path.isEmpty ? "true" : "(is-vmap \(encoder.field(ref)))", value: "(vbool (or false \(amongRead.joined(separator: " "))))")
            let computedKey = encoder.abstractFunction("'in' with a computed key", at: c.place(span), key: "in", inputs: [e, term(container, c, span)], approximation: approximation)
            if ref.path.isEmpty { return computedKey }
            // A computed element: exact membership when the field holds a list (a token's
            // `gymIds`, a document's `members`); a key test of a map stays abstract.
            let field = encoder.field(ref)
            let membership = listMembership(e, field, c, span)
            let inSet = encoder.abstractFunction("'in' on a set read from data", at: c.place(span), key: "in", inputs: [e, field])
            return "(ite (or \(error) (is-vnone \(field))) verr (ite (is-vmap \(field)) \(computedKey) (ite (is-vlist \(field)) \(membership) (ite (is-vother \(field)) \(inSet) verr))))"
        case .literalMap(let entries):
            if case .string(let key) = element { return "(vbool \(entries.contains { $0.0 == key }))" }
            return encoder.abstractFunction("'in' with a computed key", at: c.place(span), key: "in", inputs: [e, term(container, c, span)])
        default:
            let t = term(container, c, span)
            let f = encoder.abstractFunction("'in' on a list or set read from data", at: c.place(span), key: "in", inputs: [e, t])
            return "(ite (or (is-verr \(e)) (is-verr \(t))) verr (ite (or (is-vlist \(t)) (is-vmap \(t)) (is-vother \(t))) \(f) verr))"
        }
    }

    /// `element in field` for a field holding a list: exact for a list of at most
    /// ``SymbolicEncoder/listBound`` elements (strict element comparison, as lists compare),
    /// abstract beyond.
    func listMembership(_ element: String, _ field: String, _ c: Context, _ span: SourceSpan) -> String {
        let (length, elements) = encoder.listContents(of: field)
        let long = encoder.abstractFunction("'in' on a list of more than \(SymbolicEncoder.listBound) elements", at: c.place(span), key: "in", inputs: [element, field])
        return "(ite (is-verr \(element)) verr (ite (<= \(length) \(SymbolicEncoder.listBound)) (vbool \(among(element, length, elements))) \(long)))"
    }

    /// SMT Bool: `item` equals (strictly, as a list compares) one of the first `length` of
    /// `elements`.
    func among(_ item: String, _ length: String, _ elements: [String]) -> String {
        "(or false \(elements.enumerated().map { "(and (> \(length) \($0.offset)) (istrue (vseq \(item) \($0.element))))" }.joined(separator: " ")))"
    }

    func arithmetic(_ op: BinaryOperator, _ l: String, _ r: String, _ c: Context, _ span: SourceSpan) -> String {
        let smtOperator = [BinaryOperator.add: "+", .subtract: "-", .multiply: "*"][op]
        let other = encoder.abstractFunction("'\(op.rawValue)' outside int/float/string arithmetic", at: c.place(span), key: "operator \(op.rawValue)", inputs: [l, r],
                                             approximation: smtOperator.map { EvaluatorApproximation.mixedArithmetic($0, l, r) })
        let ints: String
        let real: String
        switch op {
        case .add: ints = "(iop (+ (vi \(l)) (vi \(r))))"; real = "(+ (vf \(l)) (vf \(r)))"
        case .subtract: ints = "(iop (- (vi \(l)) (vi \(r))))"; real = "(- (vf \(l)) (vf \(r)))"
        case .multiply: ints = "(iop (* (vi \(l)) (vi \(r))))"; real = "(* (vf \(l)) (vf \(r)))"
        default:
            // The encoding's reals do not tell -0.0 from 0.0, and only a zero divisor makes the
            // result depend on that sign: a fresh value there, a function of the operands elsewhere.
            let zero = "(or (= \(r) (vint 0)) (and (is-vflt \(r)) (= (vf \(r)) 0.0)))"
            let byZero = encoder.fresh("'\(op.rawValue)' by zero", at: c.place(span), approximation: EvaluatorApproximation.byZero(op.rawValue, l, r))
            let quotient = encoder.abstractFunction("'\(op.rawValue)' (division)", at: c.place(span), key: "operator \(op.rawValue)", inputs: [l, r],
                                                    approximation: op == .divide ? EvaluatorApproximation.quotient(l, r) : nil)
            // Only numbers divide: any other operand is the evaluator's error.
            return "(ite (or (is-verr \(l)) (is-verr \(r)) (not (numlike \(l))) (not (numlike \(r)))) verr (ite \(zero) \(byZero) \(quotient)))"
        }
        // Strings add; only numbers multiply (timestamps and durations add and subtract).
        let strings = op == .add ? "(ite (and (is-vstr \(l)) (is-vstr \(r))) (vstr (str.++ (vs \(l)) (vs \(r)))) \(other))"
            : op == .multiply ? "(ite (and (numlike \(l)) (numlike \(r))) \(other) verr)" : other
        // Float results that overflow to infinity are left to the abstract value.
        return "(ite (or (is-verr \(l)) (is-verr \(r))) verr (ite (and (is-vint \(l)) (is-vint \(r))) \(ints) (ite (and (is-vflt \(l)) (is-vflt \(r)) (< (absreal \(real)) \(SMTReal.huge))) (vflt \(real)) \(strings))))"
    }

    func isType(_ v: SymbolicValue, _ typeName: String, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        switch v {
        case .map(_, let error) where mapError(v) != nil:
            let t = term(v, c, span)
            _ = error
            return .term(typeTest(t, typeName, c, span))
        case .string: return .term("(vbool \(typeName == "string"))")
        case .list: return .term("(vbool \(typeName == "list"))")
        case .literalMap: return .term("(vbool \(typeName == "map"))")
        default: return .term(typeTest(term(v, c, span), typeName, c, span))
        }
    }

    func typeTest(_ t: String, _ typeName: String, _ c: Context, _ span: SourceSpan) -> String {
        let test: String
        switch typeName {
        case "bool": test = "(is-vbool \(t))"
        case "int": test = "(is-vint \(t))"
        case "float": test = "(or (is-vflt \(t)) (is-vspecial \(t)))"
        case "number": test = "(or (is-vint \(t)) (is-vflt \(t)) (is-vspecial \(t)))"
        case "string": test = "(is-vstr \(t))"
        case "timestamp": test = "(is-vts \(t))"
        case "map": test = "(is-vmap \(t))"
        case "list": test = "(is-vlist \(t))"
        default: test = "(and (is-vother \(t)) (otype (vo \(t)) \(SMTPrelude.string(typeName))))"
        }
        return "(ite (is-verr \(t)) verr (vbool \(test)))"
    }
}

/// Reals as SMT-LIB decimals.
enum SMTReal {
    /// 10^300: float results beyond it may overflow to infinity, and are left abstract.
    static let huge = "1" + String(repeating: "0", count: 300) + ".0"

    static func literal(_ d: Double) -> String {
        let magnitude = Swift.abs(d)
        // Exact: a double is a dyadic rational; its decimal expansion from `description` is the
        // shortest that round-trips, so use the exact fraction instead.
        let text: String
        if magnitude >= 1e18 {
            text = String(format: "%.0f", magnitude) + ".0"
        } else if magnitude == magnitude.rounded() {
            text = "\(Int64(magnitude)).0"
        } else {
            let exponent = magnitude.exponent
            let shift = max(0, 52 - Int(exponent))
            let significand = magnitude * Double(sign: .plus, exponent: shift, significand: 1)
            text = "(/ \(Int64(significand)).0 \(pow2(shift)).0)"
        }
        return d < 0 ? "(- \(text))" : text
    }

    private static func pow2(_ n: Int) -> String {
        var digits: [UInt8] = [1]
        for _ in 0..<n {
            var carry: UInt8 = 0
            for i in digits.indices {
                let v = digits[i] * 2 + carry
                digits[i] = v % 10
                carry = v / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return digits.reversed().map(String.init).joined()
    }
}
