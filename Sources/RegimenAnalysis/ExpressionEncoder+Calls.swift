import RegimenLanguage
import RegimenSecurity

extension ExpressionEncoder {
    func call(_ callee: Expr, _ arguments: [Expr], _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        switch callee {
        case .identifier(let name, _):
            let args = arguments.map { value($0, c) }
            if let found = c.scope.function(name), found.0.parameters.count == args.count {
                return inline(found.0, found.1, args, c, span)
            }
            switch name {
            case "get", "getAfter": return hostGet(args, after: name == "getAfter", c, span)
            case "exists", "existsAfter": return hostExists(args, after: name == "existsAfter", c, span)
            default:
                let terms = args.map { term($0, c, span) }
                // string() tells -0.0 from 0.0, which the encoding's reals do not: a fresh value.
                if name == "string" { return .term(encoder.fresh("the function \(name)()", at: c.place(span))) }
                return .term(encoder.abstractFunction("the function \(name)()", at: c.place(span), key: "function \(name)", inputs: terms))
            }
        case .member(let receiverExpr, let method, _):
            let receiver = value(receiverExpr, c)
            let args = arguments.map { value($0, c) }
            return methodCall(receiver, method, args, c, span)
        default:
            return .term(encoder.fresh("a call of a computed function", at: c.place(span)))
        }
    }

    /// A user function: its parameters bound to the arguments, its `let`s evaluated in order
    /// (an error in an unused `let` stays unseen, because errors are values), its result.
    func inline(_ function: FunctionDeclaration, _ declaringScope: LexicalScope, _ args: [SymbolicValue], _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        guard c.depth < Self.maxCallDepth else {
            return .term(encoder.fresh("calls nested deeper than \(Self.maxCallDepth)", at: c.place(span)))
        }
        let scope = LexicalScope(parent: declaringScope, variables: Dictionary(zip(function.parameters, args).map { ($0, $1) }, uniquingKeysWith: { a, _ in a }))
        for binding in function.lets {
            guard case .success(let expr) = Parser.parse(binding.value.text) else {
                scope.variables[binding.name] = .term(encoder.fresh("a let the parser rejects", at: binding.location.description))
                continue
            }
            scope.variables[binding.name] = value(expr, Context(source: binding.value.source, scope: scope, depth: c.depth + 1))
        }
        guard case .success(let body) = Parser.parse(function.body.text) else {
            return .term(encoder.fresh("a function body the parser rejects", at: function.location.description))
        }
        return value(body, Context(source: function.body.source, scope: scope, depth: c.depth + 1))
    }

    /// The segments of a `get()`/`exists()` path as V terms, and the SMT Bool that the path is
    /// not a path of strings (which makes the call an error).
    func documentPath(_ args: [SymbolicValue], _ c: Context, _ span: SourceSpan) -> (terms: [String], error: String)? {
        guard args.count == 1, case .path(let segments) = args[0] else { return nil }
        let terms = segments.map { term($0, c, span) }
        let error = terms.isEmpty ? "false" : "(or \(terms.map { "(not (is-vstr \($0)))" }.joined(separator: " ")))"
        return (terms, error)
    }

    func hostGet(_ args: [SymbolicValue], after: Bool, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        guard !after || encoder.method == .get, let path = documentPath(args, c, span) else {
            return .term(encoder.fresh(after ? "getAfter() in a write" : "get() of a computed path", at: c.place(span)))
        }
        let terms = path.terms, error = path.error
        let doc = encoder.document(terms)
        // get() of a missing document is an error in Firestore (not null).
        return .doc(DocRef(exists: doc.exists, data: MapRef(root: doc.root, path: []), id: terms.last), error: "(or \(error) (not \(doc.exists)))")
    }

    func hostExists(_ args: [SymbolicValue], after: Bool, _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        guard !after || encoder.method == .get, let path = documentPath(args, c, span) else {
            return .term(encoder.fresh(after ? "existsAfter() in a write" : "exists() of a computed path", at: c.place(span)))
        }
        let doc = encoder.document(path.terms)
        let error = path.error
        return .term("(ite \(error) verr (vbool \(doc.exists)))")
    }

    func methodCall(_ receiver: SymbolicValue, _ method: String, _ args: [SymbolicValue], _ c: Context, _ span: SourceSpan) -> SymbolicValue {
        if case .namespace(let space) = receiver {
            let terms = args.map { term($0, c, span) }
            // math.pow(-0.0, -1) is -Infinity and math.pow(0.0, -1) Infinity, a sign the
            // encoding's reals lose: a fresh value per use.
            if space == "math" && method == "pow" { return .term(encoder.fresh("math.pow()", at: c.place(span))) }
            let numeric = space == "math" && terms.count == 1 && EvaluatorApproximation.numericMath.contains(method)
            let approximation = numeric ? terms.first.flatMap { EvaluatorApproximation.math(method, $0) } : nil
            let application = encoder.abstractFunction("\(space).\(method)()", at: c.place(span), key: "\(space).\(method)", inputs: terms, approximation: approximation)
            // Arguments are evaluated before the call: an erroring argument is the call's error
            // (before, `math.round(error)` could be any value, and a request that errors there
            // looked allowed).
            guard !terms.isEmpty else { return .term(application) }
            // math.abs/floor/ceil/round take a number and fail on anything else.
            let onNumbers = numeric ? terms.map { "(not (numlike \($0)))" } : []
            return .term("(ite (or \((terms.map { "(is-verr \($0))" } + onNumbers).joined(separator: " "))) verr \(application))")
        }
        if case .choice(let error, let condition, let ifTrue, let ifFalse) = receiver {
            // Each side encoded as itself (a list field's contents, a literal's items).
            return .choice(error: error, condition: condition, ifTrue: methodCall(ifTrue, method, args, c, span), ifFalse: methodCall(ifFalse, method, args, c, span))
        }
        switch (method, args.count) {
        case ("get", 2):
            if case .string(let key) = args[0], let error = mapError(receiver), case .map(let ref, _) = receiver {
                let field = ref.child(key)
                return .choice(error: error, condition: "(is-vnone \(encoder.field(field)))", ifTrue: args[1], ifFalse: .map(field, error: error))
            }
            if case .literalMap(let entries) = receiver, case .string(let key) = args[0] {
                return entries.first(where: { $0.0 == key })?.1 ?? args[1]
            }
        case ("toSet", 0):
            if case .map(let ref, _) = receiver, !ref.path.isEmpty {
                // The same term as any other method call, so both versions of a policy share it.
                let t = term(receiver, c, span)
                let f = encoder.abstractFunction("toSet()", at: c.place(span), key: "method toSet", inputs: [t])
                return .listAsSet(ref, term: "(ite (is-verr \(t)) verr \(f))")
            }
        case ("size", 0):
            if case .listAsSet(let ref, let set) = receiver {
                // toSet() of a list never errors: the distinct elements of a short list without
                // NaN or infinities (1 and 1.0 are one element of a set), exactly.
                let field = encoder.field(ref)
                let (length, elements) = encoder.listContents(of: field)
                let noSpecial = elements.enumerated().map { "(or (<= \(length) \($0.offset)) (not (is-vspecial \($0.element))))" }.joined(separator: " ")
                let firstOfItsValue = elements.enumerated().map { index, element in
                    let earlier = elements.prefix(index).map { "(not (istrue (veq \(element) \($0))))" }.joined(separator: " ")
                    return "(ite (and (> \(length) \(index)) \(earlier)) 1 0)"
                }.joined(separator: " ")
                let other = encoder.abstractFunction("size() of a list or map", at: c.place(span), key: "size", inputs: [set])
                let generic = "(ite (is-verr \(set)) verr (ite (or (is-vlist \(set)) (is-vmap \(set)) (is-vother \(set))) \(other) verr))"
                return .term("(ite (and (is-vlist \(field)) (<= \(length) \(SymbolicEncoder.listBound)) \(noSpecial)) (vint (+ \(firstOfItsValue))) \(generic))")
            }
            if case .list(let items) = receiver { return .term("(ite (is-verr \(term(receiver, c, span))) verr (vint \(items.count)))") }
            if case .string(let s) = receiver { return .term("(vint \(s.utf16.count))") }
            let t = term(receiver, c, span)
            // UTF-16 code units: between the code points z3 counts and twice that (one variable
            // per receiver, so the same size() in both versions of a policy is one value).
            let (extra, isNew) = encoder.variable("size_extra", of: t)
            if isNew {
                encoder.declare(extra, "Int")
                encoder.assume("(and (>= \(extra) 0) (<= \(extra) (str.len (vs \(t)))))")
                encoder.constrainConcretely("(= \(extra) 0)")
            }
            let other = encoder.abstractFunction("size() of a list or map", at: c.place(span), key: "size", inputs: [t])
            // A list read from data has its length, and a map read field by field its fields and
            // the keys the policies never read: exact.
            var listSize = other, mapSize = other
            if case .map(let ref, _) = receiver {
                if !ref.path.isEmpty { listSize = "(vint \(encoder.listContents(of: encoder.field(ref)).length))" }
                mapSize = "(vint \(encoder.mapSize(ref)))"
            }
            return .term("(ite (is-verr \(t)) verr (ite (is-vstr \(t)) (vint (+ (str.len (vs \(t))) \(extra))) (ite (is-vlist \(t)) \(listSize) (ite (is-vmap \(t)) \(mapSize) (ite (is-vother \(t)) \(other) verr)))))")
        case ("diff", 1):
            // `data.diff(resource == null ? {} : resource.data)`: a diff per branch.
            if case .choice(let error, let condition, let ifTrue, let ifFalse) = args[0] {
                return .choice(error: error, condition: condition, ifTrue: methodCall(receiver, method, [ifTrue], c, span), ifFalse: methodCall(receiver, method, [ifFalse], c, span))
            }
            if case .map(let a, _) = receiver, let errorA = mapError(receiver), case .map(let b, _) = args[0], let errorB = mapError(args[0]) {
                return .mapDiff(a, b, error: "(or \(errorA) \(errorB))")
            }
            if case .map(let a, _) = receiver, let error = mapError(receiver), case .literalMap(let entries) = args[0], entries.isEmpty {
                return .mapDiffFromEmpty(a, error: error)
            }
        case ("affectedKeys", 0):
            if case .mapDiff(let a, let b, let error) = receiver { return .affectedKeys(a, b, error: error) }
            if case .mapDiffFromEmpty(let a, let error) = receiver { return .keys(a, error: error) }
        case ("values", 0):
            if case .map(let ref, _) = receiver, let error = mapError(receiver) { return .mapValues(ref, error: error) }
        case ("keys", 0):
            if case .literalMap(let entries) = receiver { return .list(entries.map { .string($0.0) }) }
            if case .map(let ref, _) = receiver, let error = mapError(receiver) { return .keys(ref, error: error) }
        case ("hasOnly", 1), ("hasAll", 1), ("hasAny", 1):
            if case .map(let ref, _) = receiver, !ref.path.isEmpty, case .list(let items) = args[0] {
                return .term(listFieldHas(method, receiver, ref, items, c, span))
            }
            if case .list(let own) = receiver, case .list(let items) = args[0] {
                // Two lists written out: exact, elements compared strictly.
                let ownTerms = own.map { term($0, c, span) }, itemTerms = items.map { term($0, c, span) }
                func member(_ x: String, _ list: [String]) -> String { "(or false \(list.map { "(istrue (vseq \(x) \($0)))" }.joined(separator: " ")))" }
                let result: String
                switch method {
                case "hasAll": result = "(and true \(itemTerms.map { member($0, ownTerms) }.joined(separator: " ")))"
                case "hasAny": result = "(or false \(itemTerms.map { member($0, ownTerms) }.joined(separator: " ")))"
                default: result = "(and true \(ownTerms.map { member($0, itemTerms) }.joined(separator: " ")))"
                }
                let anyError = (ownTerms + itemTerms).map { "(is-verr \($0))" }.joined(separator: " ")
                return .term("(ite (or false \(anyError)) verr (vbool \(result)))")
            }
            if method == "hasOnly", case .mapValues(let ref, let error) = receiver, case .list(let items) = args[0] {
                // Every value the map holds is one of the items: exact over the fields the
                // policies read; a map with keys nobody reads has values nobody knows (abstract).
                let itemTerms = items.map { term($0, c, span) }
                let other = encoder.abstractFunction("values().hasOnly() of a map with keys the rules never read", at: c.place(span), key: "values hasOnly", inputs: [term(receiver, c, span), term(args[0], c, span)])
                let anyItemError = itemTerms.map { "(is-verr \($0))" }.joined(separator: " ")
                return .term("(ite (or \(error) \(anyItemError)) verr (ite \(encoder.extraKeys(ref)) \(other) (vbool \(encoder.valuesHaveOnly(ref, itemTerms)))))")
            }
            if case .affectedKeys(let a, let b, let error) = receiver, case .list(let items) = args[0],
               let result = keySetQuery(method, items, error: error, contains: { "(not \(encoder.unchanged(a.child($0), b.child($0))))" }, only: { encoder.diffHasOnly(a, b, $0) }) {
                return .term(result)
            }
            if case .keys(let ref, let error) = receiver, case .list(let items) = args[0],
               let result = keySetQuery(method, items, error: error, contains: { "(not (is-vnone \(encoder.field(ref.child($0)))))" }, only: { encoder.hasOnly(ref, $0) }) {
                return .term(result)
            }
        case ("matches", 1):
            guard case .string(let pattern) = args[0] else { break }
            let t = term(receiver, c, span)
            guard RegularExpression.syntaxError(in: pattern) == nil else {
                // A pattern outside RE2's grammar is an error on every receiver.
                return .term("verr")
            }
            guard let regex = RegexEncoding(pattern, budget: EvaluationLimits().maxPatternSteps) else { break }
            // Past the decided length the evaluator may stop with an error: left abstract.
            let long = encoder.abstractFunction("matches() on a text longer than \(regex.decidedLength) code points", at: c.place(span), key: "matches \(pattern)", inputs: [t])
            return .term("(ite (is-verr \(t)) verr (ite (is-vstr \(t)) (ite (<= (str.len (vs \(t))) \(regex.decidedLength)) (vbool (str.in.re (vs \(t)) \(regex.language))) \(long)) verr))")
        case ("trim", 0):
            let t = term(receiver, c, span)
            let (trimmed, isNew) = encoder.variable("trim", of: t)
            let before = trimmed + "_before", after = trimmed + "_after"
            guard isNew else { return .term("(ite (is-verr \(t)) verr (ite (is-vstr \(t)) (vstr \(trimmed)) verr))") }
            for name in [trimmed, before, after] { encoder.declare(name, "String") }
            // trim() removes characters up to U+0020 at both ends.
            let space = "(re.range \"\\u{0}\" \" \")"
            let visible = "(re.range \"!\" \"\\u{2ffff}\")"
            encoder.assume("(=> (is-vstr \(t)) (and (= (vs \(t)) (str.++ \(before) \(trimmed) \(after))) (str.in.re \(before) (re.* \(space))) (str.in.re \(after) (re.* \(space))) (or (= \(trimmed) \"\") (and (str.in.re (str.at \(trimmed) 0) \(visible)) (str.in.re (str.at \(trimmed) (- (str.len \(trimmed)) 1)) \(visible))))))")
            // The concrete attempt looks for strings without surrounding spaces first: the
            // concatenation is what makes the string solver slow.
            encoder.constrainConcretely("(and (= \(before) \"\") (= \(after) \"\"))")
            return .term("(ite (is-verr \(t)) verr (ite (is-vstr \(t)) (vstr \(trimmed)) verr))")
        default: break
        }
        let t = term(receiver, c, span)
        let terms = args.map { term($0, c, span) }
        let f = encoder.abstractFunction("\(method)()", at: c.place(span), key: "method \(method)", inputs: [t] + terms)
        return .term("(ite (is-verr \(t)) verr \(f))")
    }
}

extension ExpressionEncoder {
    /// `hasAll`, `hasAny` or `hasOnly` of literal keys over a set of keys the encoding decides
    /// key by key (`keys()` of a map, a diff's `affectedKeys()`): `contains` says whether one
    /// key is in the set, `only` whether no other key is. `nil` when an item is not a literal key.
    func keySetQuery(_ method: String, _ items: [SymbolicValue], error: String, contains: (String) -> String, only: (Set<String>) -> String) -> String? {
        let keys = items.compactMap { item -> String? in if case .string(let key) = item { key } else { nil } }
        guard keys.count == items.count else { return nil }
        let each = keys.map(contains).joined(separator: " ")
        switch method {
        case "hasAll": return "(ite \(error) verr (vbool (and true \(each))))"
        case "hasAny": return "(ite \(error) verr (vbool (or false \(each))))"
        default: return "(ite \(error) verr (vbool \(only(Set(keys)))))"
        }
    }

    /// `field.hasAll([...])`, `hasAny` or `hasOnly` of a literal list, for a field read from
    /// data: exact when the field holds a list of at most ``SymbolicEncoder/listBound`` elements
    /// (elements compared strictly, as lists compare); abstract for a longer list, a set or a
    /// map's keys list; an error for anything else.
    func listFieldHas(_ method: String, _ receiver: SymbolicValue, _ ref: MapRef, _ items: [SymbolicValue], _ c: Context, _ span: SourceSpan) -> String {
        let field = encoder.field(ref)
        let t = term(receiver, c, span)
        let itemTerms = items.map { term($0, c, span) }
        let argument = term(.list(items), c, span)
        let (length, elements) = encoder.listContents(of: field)
        let exact: String
        switch method {
        case "hasAll":
            exact = "(and true \(itemTerms.map { among($0, length, elements) }.joined(separator: " ")))"
        case "hasAny":
            exact = "(or false \(itemTerms.map { among($0, length, elements) }.joined(separator: " ")))"
        default:
            exact = "(and true \(elements.enumerated().map { element in "(or (<= \(length) \(element.offset)) \(itemTerms.map { "(istrue (vseq \(element.element) \($0)))" }.joined(separator: " ")))" }.joined(separator: " ")))"
        }
        let other = encoder.abstractFunction("\(method)() of a list of more than \(SymbolicEncoder.listBound) elements, or of a set", at: c.place(span), key: method, inputs: [t, argument])
        let anyItemError = itemTerms.map { "(is-verr \($0))" }.joined(separator: " ")
        return "(ite (or (is-verr \(t)) \(anyItemError)) verr (ite (and (is-vlist \(t)) (<= \(length) \(SymbolicEncoder.listBound))) (vbool \(exact)) (ite (or (is-vlist \(t)) (is-vother \(t))) \(other) verr)))"
    }
}
