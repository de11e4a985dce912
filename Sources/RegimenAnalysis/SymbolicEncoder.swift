import RegimenLanguage
import RegimenSecurity

/// The request methods the analysis covers (single-document requests; `list` queries are not
/// analysed and are reported as such).
package enum AnalysedMethod: String, Sendable, CaseIterable, Hashable {
    case get, create, update, delete

    /// `read` → get; `write` → create, update, delete; a single method → itself.
    package static func expand(_ word: String) -> [AnalysedMethod]? {
        switch word {
        case "read": [.get]
        case "write": [.create, .update, .delete]
        default: AnalysedMethod(rawValue: word).map { [$0] }
        }
    }

    var requestMethod: RequestMethod {
        switch self {
        case .get: .get
        case .create: .create
        case .update: .update
        case .delete: .delete
        }
    }
}

/// One symbolic request: the SMT variables shared by every policy encoded against it, and the
/// constraints that make them a request Firestore could receive.
///
/// Variables are named by what they mean (a field path, a path segment), so encoding two
/// policies into one encoder makes them read the same request.
final class SymbolicEncoder {
    let method: AnalysedMethod
    /// The request path below `/databases/(default)/documents`: each segment a literal or a
    /// variable.
    let segments: [SymbolicValue]
    private(set) var declarations: [String] = []
    private(set) var constraints: [String] = []
    /// Restrictions of the second attempt at a counterexample (values a test file spells
    /// exactly); a field whose list contents are modelled may be a list of at most ``listBound``,
    /// and any other field may be a list too: no rule reads its contents, so the counterexample
    /// writes it empty (`data.workouts is list` alone is satisfiable) and the replay decides.
    var concreteConstraints: [String] { concreteConstraints(textBound: 40) }

    /// The constraints of a concrete attempt whose texts may be up to `textBound` code points
    /// long; `plainIds` keeps the uid and document ids to letters, digits, `-` and `_` (the
    /// long-text search leaves them free: z3's string solver that finds long texts stalls on
    /// those regular expressions, and the test file quotes any id).
    func concreteConstraints(textBound: Int, plainIds: Bool = true) -> [String] {
        baseConcreteConstraints + (plainIds ? idConstraints : ["(> (str.len \(Self.uid)) 0)"]) + fieldVariables.map { field in
            "(=> (not (is-vnone \(field.name))) \(SMTPrelude.concreteValue(field.name, allowingLists: true, textBound: textBound)))"
        } + extraKeyMaps.compactMap { ref in
            // A counterexample writes keys nobody reads as `extra_1: null`…: as many as the
            // map's size() needs (up to extraKeysWritten), else none.
            guard let extra = extras[ref] else { return nil }
            if let unread = unreadKeyCounts[ref] { return "(<= \(unread) \(Self.extraKeysWritten))" }
            return "(not \(extra))"
        }
    }
    private var baseConcreteConstraints: [String] = []
    /// The concrete attempt's uid and document ids: short, of letters, digits, `-` and `_`.
    private var idConstraints: [String] = []
    /// Every number a field or list element holds below 1,000 in magnitude: the first concrete
    /// attempt when ``hasNonlinearApproximation``.
    var smallNumberConstraints: [String] {
        (fieldVariables.map(\.name) + listFields.flatMap { listContents(of: $0).elements }).map { v in
            "(=> (isnum \(v)) (and (< (num \(v)) 1000.0) (> (num \(v)) (- 1000.0))))"
        }
    }
    /// The field variables whose list contents (length and first elements) the encoding reads.
    private(set) var listFields: [String] = []
    private var listFieldNames = Set<String>()
    /// How many elements of a list read from data the encoding decides exactly (and a
    /// counterexample writes); longer lists' contents are abstract.
    static let listBound = 4
    private(set) var abstractions: [Abstraction] = []
    /// Every field variable: its map and name.
    private(set) var fieldVariables: [(ref: MapRef, name: String)] = []
    private var fieldNames: [MapRef: String] = [:]
    /// `get()`/`exists()` documents by their path's terms.
    private(set) var documents: [(key: String, segments: [String], exists: String, root: String)] = []
    private var counter = 0
    private var rootIDs: [String: Int] = [:]

    static let auth = "auth_signed_in"
    static let uid = "auth_uid"
    static let time = "request_time"
    static let resourceExists = "resource_exists"

    init(method: AnalysedMethod, segments: [SymbolicValue]) {
        self.method = method
        self.segments = segments
        declare(Self.auth, "Bool")
        declare(Self.uid, "String")
        declare(Self.time, "Int")
        declare(Self.resourceExists, "Bool")
        switch method {
        case .create: constraints.append("(not \(Self.resourceExists))")
        case .update: constraints.append(Self.resourceExists)
        case .get, .delete: break
        }
        idConstraints.append("(str.in.re \(Self.uid) (re.+ (re.union (re.range \"a\" \"z\") (re.range \"0\" \"9\"))))")
        baseConcreteConstraints.append("(and (= (mod \(Self.time) 1000000000) 0) (>= \(Self.time) 0) (<= \(Self.time) 4102444800000000000))")
        constraints.append("(and (>= \(Self.time) (- 62135596800000000000)) (< \(Self.time) 253402300800000000000))")
    }

    func declare(_ name: String, _ sort: String) {
        declarations.append("(declare-const \(name) \(sort))")
    }

    func assume(_ constraint: String) { constraints.append(constraint) }

    /// A restriction of the concrete attempt only (see ``concreteConstraints``).
    func constrainConcretely(_ constraint: String) { baseConcreteConstraints.append(constraint) }

    /// A new unconstrained value (an error or any value) for a construct encoded abstractly,
    /// recorded with its place.
    /// `approximation`: as for ``abstractFunction(_:at:key:inputs:approximation:)``.
    func fresh(_ construct: String, at location: String, approximation: EvaluatorApproximation.Guarded? = nil) -> String {
        counter += 1
        let name = "abstract_\(counter)"
        declare(name, "V")
        constraints.append(Self.anyOutcome(name))
        record(Abstraction(construct: construct, location: location))
        if let approximation { baseConcreteConstraints.append("(=> \(approximation.when) (= \(name) \(approximation.value)))") }
        return name
    }

    /// The result of a construct encoded abstractly, as an uninterpreted function of its inputs
    /// (V terms): the same construct applied to the same values gives the same result, in every
    /// policy encoded against this request, so a construct both versions share unchanged cancels
    /// out of a comparison; the result itself is unconstrained (an error or any value). Sound
    /// only for constructs whose result is a function of the values of `inputs` (and of the
    /// request, which is fixed within one query); `key` names the function (with its arity).
    ///
    /// `approximation`, when given, is what the evaluator computes in the common case (`when`
    /// holds): the concrete attempt at a counterexample asserts it (never a proof, so it need
    /// not be exact: the replay decides), so that a request that depends on the construct is
    /// found with the value the evaluator gives rather than any value the solver likes.
    func abstractFunction(_ construct: String, at location: String, key: String, inputs: [String], approximation: EvaluatorApproximation.Guarded? = nil) -> String {
        record(Abstraction(construct: construct, location: location))
        let functionKey = "\(key)/\(inputs.count)"
        let symbol: String
        if let known = functionSymbols[functionKey] {
            symbol = known
        } else {
            symbol = "absfn_\(functionSymbols.count)"
            functionSymbols[functionKey] = symbol
            declarations.append("(declare-fun \(symbol) (\(inputs.map { _ in "V" }.joined(separator: " "))) V)")
        }
        let application = inputs.isEmpty ? symbol : "(\(symbol) \(inputs.joined(separator: " ")))"
        if appliedFunctions.insert(application).inserted { constraints.append(Self.anyOutcome(application)) }
        if let approximation {
            let constraint = "(=> \(approximation.when) (= \(application) \(approximation.value)))"
            if approximatedApplications.insert(constraint).inserted { baseConcreteConstraints.append(constraint) }
            hasNonlinearApproximation = hasNonlinearApproximation || approximation.nonlinear
        }
        return application
    }

    private var functionSymbols: [String: String] = [:]
    private var appliedFunctions = Set<String>()
    private var approximatedApplications = Set<String>()
    /// Whether an approximation multiplies or divides unknowns: the concrete attempt then
    /// first looks among small numbers (``smallNumberConstraints``), where the solver's
    /// nonlinear arithmetic finishes (a quotient of two ints under a million did not, in 30 s).
    private(set) var hasNonlinearApproximation = false

    private func record(_ abstraction: Abstraction) {
        if !abstractions.contains(abstraction) { abstractions.append(abstraction) }
    }

    /// An abstracted result: an error, or any value a field could hold.
    static func anyOutcome(_ term: String) -> String { "(or (is-verr \(term)) (okvalue \(term)))" }

    /// A new id for an opaque map, list or path built by an expression.
    func opaqueID() -> Int {
        counter += 1
        return 1_000_000 + counter
    }

    /// The id of an opaque map, list or path built from `content` (its kind and its elements'
    /// terms): equal content, equal id, so both versions of a policy build the same value.
    func opaqueID(content: String) -> Int {
        if let known = contentIDs[content] { return known }
        let id = 2_000_000 + contentIDs.count
        contentIDs[content] = id
        return id
    }

    private var contentIDs: [String: Int] = [:]

    /// The name of the helper variable `prefix` for the value `term` (one per term), and whether
    /// it is new (the caller then declares and constrains it).
    func variable(_ prefix: String, of term: String) -> (name: String, isNew: Bool) {
        let key = prefix + " " + term
        if let known = helperVariables[key] { return (known, false) }
        counter += 1
        let name = "\(prefix)_\(counter)"
        helperVariables[key] = name
        return (name, true)
    }

    private var helperVariables: [String: String] = [:]

    /// The id of a root map (`new`, `old`, `token`, `docN`).
    func rootID(_ root: String) -> Int {
        if let id = rootIDs[root] { return id }
        let id = rootIDs.count + 1
        rootIDs[root] = id
        return id
    }

    /// The length and the first ``listBound`` elements of the list field `variable` holds (when
    /// it holds a list), as terms; the first use constrains them to be a list's: a length of at
    /// least 0 and elements that are values (at most ``listBound`` long, and elements a test
    /// file spells, in the concrete attempt).
    func listContents(of variable: String) -> (length: String, elements: [String]) {
        let length = "(llen (vl \(variable)))"
        let elements = (0..<Self.listBound).map { "(lelem (vl \(variable)) \($0))" }
        if listFieldNames.insert(variable).inserted {
            listFields.append(variable)
            constraints.append("(=> (is-vlist \(variable)) (>= \(length) 0))")
            baseConcreteConstraints.append("(=> (is-vlist \(variable)) (<= \(length) \(Self.listBound)))")
            for (index, element) in elements.enumerated() {
                let present = "(and (is-vlist \(variable)) (> \(length) \(index)))"
                constraints.append("(=> \(present) (okvalue \(element)))")
                baseConcreteConstraints.append("(=> \(present) (and (not (is-vmap \(element))) \(SMTPrelude.concreteValue(element))))")
            }
        }
        return (length, elements)
    }

    /// The variable holding field `ref` (declared on first use): any value, or `vnone` when
    /// the field is absent.
    func field(_ ref: MapRef) -> String {
        if let name = fieldNames[ref] { return name }
        let variable = "field_\(fieldVariables.count)"
        fieldNames[ref] = variable
        fieldVariables.append((ref: ref, name: variable))
        declare(variable, "V")
        constraints.append("(or (is-vnone \(variable)) (okvalue \(variable)))")
        // A field of a map can only be present when its parent is a map.
        if ref.path.count > 1 {
            let parent = field(MapRef(root: ref.root, path: Array(ref.path.dropLast())))
            constraints.append("(=> (not (is-vnone \(variable))) (is-vmap \(parent)))")
        }
        if ref.root == "token" && ref.path == ["sub"] { constraints.append("(not (is-vnone \(variable)))") }
        return variable
    }

    /// `keys().hasOnly(keys)` of map `ref`, as a Bool variable defined once every field the
    /// policies read is known (``documentConsistency()``): no other known field is present and
    /// the map has no key the policies never name (`extra_keys`, free in proofs).
    func hasOnly(_ ref: MapRef, _ keys: Set<String>) -> String {
        counter += 1
        let name = "has_only_\(counter)"
        declare(name, "Bool")
        for key in keys.sorted() { _ = field(ref.child(key)) }
        pendingHasOnly.append((name, ref, keys))
        return name
    }

    /// SMT Bool: fields `a` and `b` are the same for `diff()`: both absent, or both present and
    /// equal (`==`: `diff` counts 1 and 1.0 as unchanged).
    func unchanged(_ a: MapRef, _ b: MapRef) -> String {
        let x = field(a), y = field(b)
        // Map and list equality is uninterpreted, and a counterexample writes only the fields read
        // below them: the concrete attempt compares scalars, which it writes exactly.
        for variable in [x, y] where comparedByDiff.insert(variable).inserted {
            baseConcreteConstraints.append("(and (not (is-vmap \(variable))) (not (is-vlist \(variable))))")
        }
        return "(or (and (is-vnone \(x)) (is-vnone \(y))) (and (not (is-vnone \(x))) (not (is-vnone \(y))) (istrue (veq \(x) \(y)))))"
    }

    /// `a.diff(b).affectedKeys().hasOnly(keys)`, as a Bool variable defined once every field the
    /// policies read is known (``documentConsistency()``): every other field either map has is
    /// unchanged, and no key the policies never name changed (`diff_other_keys`, free in proofs,
    /// false in the concrete attempt, whose documents hold only the keys read).
    func diffHasOnly(_ a: MapRef, _ b: MapRef, _ keys: Set<String>) -> String {
        counter += 1
        let name = "diff_has_only_\(counter)"
        declare(name, "Bool")
        for key in keys.sorted() { _ = field(a.child(key)); _ = field(b.child(key)) }
        pendingDiffHasOnly.append((name, a, b, keys))
        return name
    }

    /// The Bool "maps `a` and `b` differ in a key the policies never read".
    func diffOtherKeys(_ a: MapRef, _ b: MapRef) -> String {
        let key = "\(a.root).\(a.path.joined(separator: ".")) \(b.root).\(b.path.joined(separator: "."))"
        if let name = diffOthers[key] { return name }
        let name = "diff_other_keys_\(diffOthers.count)"
        diffOthers[key] = name
        declare(name, "Bool")
        baseConcreteConstraints.append("(not \(name))")
        return name
    }

    private var pendingDiffHasOnly: [(String, MapRef, MapRef, Set<String>)] = []
    private var comparedByDiff = Set<String>()
    private var diffOthers: [String: String] = [:]

    /// The number of keys of map `ref`, as an Int variable defined once every field the policies
    /// read is known (``documentConsistency()``): its present fields plus a count of keys the
    /// policies never read (at least 1 exactly when `extra_keys` holds).
    func mapSize(_ ref: MapRef) -> String {
        if let name = mapSizes[ref] { return name }
        let name = "map_size_\(mapSizes.count)"
        mapSizes[ref] = name
        declare(name, "Int")
        pendingMapSizes.append((name, ref))
        return name
    }

    /// `values().hasOnly(items)` of map `ref` over the fields the policies read, as a Bool
    /// variable defined once every field is known (``documentConsistency()``): each present
    /// field equals one item (strictly, as a list's elements compare).
    func valuesHaveOnly(_ ref: MapRef, _ items: [String]) -> String {
        counter += 1
        let name = "values_have_only_\(counter)"
        declare(name, "Bool")
        pendingValuesHaveOnly.append((name, ref, items))
        return name
    }

    private var pendingValuesHaveOnly: [(String, MapRef, [String])] = []
    private var mapSizes: [MapRef: String] = [:]
    private var pendingMapSizes: [(String, MapRef)] = []

    /// The Bool "map `ref` has keys besides the fields the policies read".
    func extraKeys(_ ref: MapRef) -> String {
        if let name = extras[ref] { return name }
        let name = "extra_keys_\(extras.count)"
        extras[ref] = name
        extraKeyMaps.append(ref)
        declare(name, "Bool")
        return name
    }

    private var pendingHasOnly: [(String, MapRef, Set<String>)] = []
    private var extras: [MapRef: String] = [:]
    /// The maps with an `extra_keys` Bool, in order.
    private(set) var extraKeyMaps: [MapRef] = []
    /// How many keys the policies never read map `ref` has, where its `size()` is read.
    private(set) var unreadKeyCounts: [MapRef: String] = [:]
    /// The most keys the policies never read a counterexample writes into one map.
    static let extraKeysWritten = 2

    /// The `extra_keys` Bool of `ref`, when one was made.
    func existingExtraKeys(_ ref: MapRef) -> String? { extras[ref] }

    /// The `get()`/`exists()` document at the path whose segments are `segmentTerms` (V terms).
    func document(_ segmentTerms: [String]) -> (exists: String, root: String) {
        let key = segmentTerms.joined(separator: "/")
        if let known = documents.first(where: { $0.key == key }) { return (known.exists, known.root) }
        let index = documents.count
        let exists = "doc\(index)_exists"
        declare(exists, "Bool")
        // A counterexample names the document by its path: segments a test file can write (not
        // empty, no slash), whatever the evaluator makes of others.
        for segment in segmentTerms where segment.hasPrefix("(") {
            baseConcreteConstraints.append("(=> (is-vstr \(segment)) (and (> (str.len (vs \(segment))) 0) (not (str.contains (vs \(segment)) \"/\"))))")
        }
        documents.append((key: key, segments: segmentTerms, exists: exists, root: "doc\(index)"))
        return (exists, "doc\(index)")
    }

    /// Constraints between documents that may be the same one: two `get()` paths that are equal
    /// denote one document (same existence, same fields), and a `get()` of the request's own path
    /// reads the stored document (`resource`).
    func documentConsistency() -> [String] {
        var out: [String] = []
        // Every key either map of a diff has that the policies read, read on both sides, first:
        // the keys().hasOnly definitions below must see those fields too.
        var diffDefinitions: [String] = []
        for (name, a, b, keys) in pendingDiffHasOnly {
            func children(_ ref: MapRef) -> [String] {
                fieldVariables.filter { $0.ref.root == ref.root && $0.ref.path.count == ref.path.count + 1 && Array($0.ref.path.dropLast()) == ref.path }.compactMap(\.ref.path.last)
            }
            let read = Set(children(a)).union(children(b)).subtracting(keys)
            let unchangedRead = read.sorted().map { unchanged(a.child($0), b.child($0)) }
            diffDefinitions.append("(= \(name) (and (not \(diffOtherKeys(a, b))) \(unchangedRead.joined(separator: " "))))")
        }
        out += diffDefinitions
        for (name, ref, items) in pendingValuesHaveOnly {
            let children = fieldVariables.filter { $0.ref.root == ref.root && $0.ref.path.count == ref.path.count + 1 && Array($0.ref.path.dropLast()) == ref.path }
            let each = children.map { child in "(or (is-vnone \(child.name)) \(items.map { "(istrue (vseq \(child.name) \($0)))" }.joined(separator: " ")))" }
            out.append("(= \(name) (and true \(each.joined(separator: " "))))")
        }
        for (name, ref) in pendingMapSizes {
            let present = fieldVariables.filter { $0.ref.root == ref.root && $0.ref.path.count == ref.path.count + 1 && Array($0.ref.path.dropLast()) == ref.path }
                .map { "(ite (is-vnone \($0.name)) 0 1)" }
            let unread = name + "_unread"
            declare(unread, "Int")
            unreadKeyCounts[ref] = unread
            out.append("(= (> \(unread) 0) \(extraKeys(ref)))")
            out.append("(>= \(unread) 0)")
            out.append("(= \(name) (+ \(unread) \(present.joined(separator: " ")) 0))")
        }
        for (name, ref, keys) in pendingHasOnly {
            let others = fieldVariables.filter { $0.ref.path.count == ref.path.count + 1 && $0.ref.root == ref.root && Array($0.ref.path.dropLast()) == ref.path && !keys.contains($0.ref.path.last ?? "") }
            let absent = others.map { "(is-vnone \($0.name))" }.joined(separator: " ")
            out.append("(= \(name) (and (not \(extraKeys(ref))) \(absent)))")
        }
        let requestTerms = requestPathTerms()
        func fields(of root: String) -> [MapRef] { fieldVariables.map(\.ref).filter { $0.root == root } }
        func sameDocument(_ a: [String], _ b: [String]) -> String {
            guard a.count == b.count else { return "false" }
            return "(and true \(zip(a, b).map { "(= \($0) \($1))" }.joined(separator: " ")))"
        }
        for (i, doc) in documents.enumerated() {
            // A document path the request names itself.
            let same = sameDocument(doc.segments, requestTerms)
            if same != "false" {
                out.append("(=> \(same) (= \(doc.exists) \(Self.resourceExists)))")
                for ref in fields(of: doc.root) {
                    let other = MapRef(root: "old", path: ref.path)
                    out.append("(=> (and \(same) \(doc.exists)) (= \(field(ref)) \(field(other))))")
                }
            }
            for other in documents[(i + 1)...] {
                let sameOther = sameDocument(doc.segments, other.segments)
                guard sameOther != "false" else { continue }
                out.append("(=> \(sameOther) (= \(doc.exists) \(other.exists)))")
                let paths = Set(fields(of: doc.root).map(\.path)).union(fields(of: other.root).map(\.path))
                for path in paths.sorted(by: { $0.joined(separator: ".") < $1.joined(separator: ".") }) {
                    out.append("(=> \(sameOther) (= \(field(MapRef(root: doc.root, path: path))) \(field(MapRef(root: other.root, path: path)))))")
                }
            }
        }
        // An update merges its data into the stored document: a top-level field the new
        // document lacks, the stored one lacked too (no deleteField() in counterexamples).
        if method == .update {
            let keys = Set(fieldVariables.filter { ($0.ref.root == "new" || $0.ref.root == "old") && $0.ref.path.count == 1 }.map { $0.ref.path[0] })
            for key in keys.sorted() {
                out.append("(=> (is-vnone \(field(MapRef(root: "new", path: [key])))) (is-vnone \(field(MapRef(root: "old", path: [key])))))")
            }
        }
        return out
    }

    /// The request path's segments as V terms, `/databases/(default)/documents` included.
    func requestPathTerms() -> [String] {
        ["(vstr \"databases\")", "(vstr \"(default)\")", "(vstr \"documents\")"] + segments.map { Self.termOfSegment($0) }
    }

    static func termOfSegment(_ segment: SymbolicValue) -> String {
        switch segment {
        case .string(let s): "(vstr \(SMTPrelude.string(s)))"
        case .term(let t): t
        default: "verr"
        }
    }

    /// Declares a variable for one request path segment (a document or collection id).
    func pathSegmentVariable(_ index: Int) -> SymbolicValue {
        let name = "path_segment_\(index)"
        declare(name, "String")
        constraints.append("(and (> (str.len \(name)) 0) (<= (str.len \(name)) 1500) (not (str.contains \(name) \"/\")) (not (= \(name) \".\")) (not (= \(name) \"..\")) (not (and (str.prefixof \"__\" \(name)) (str.suffixof \"__\" \(name)))))")
        // An id a test file, a URL and the emulator all take as it is: letters, digits, `-` and
        // `_` (a date id such as `2026-11-29` included).
        idConstraints.append("(and (<= (str.len \(name)) 40) (str.in.re \(name) (re.+ (re.union (re.range \"a\" \"z\") (re.range \"A\" \"Z\") (re.range \"0\" \"9\") (str.to_re \"-\") (str.to_re \"_\")))))")
        return .term("(vstr \(name))")
    }
}
