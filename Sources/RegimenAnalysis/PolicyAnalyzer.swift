import Foundation
import OrderedCollections
import RegimenLanguage
package import RegimenSecurity

/// The answer to one question about every request of a ``RequestShape``.
package enum Verdict: Sendable {
    /// No request of the shape is a counterexample (the solver proved the question unsatisfiable
    /// over an encoding that over-approximates what it does not model exactly).
    case proved
    /// A concrete request that answers "no", replayed through Regimen's evaluator.
    case counterexample(Counterexample)
    /// The solver found a request, but it could not be confirmed concretely (it may depend on a
    /// construct the encoding abstracts, listed in `abstractions`).
    case possible(reason: String, abstractions: [Abstraction])
    /// The solver gave up or ran out of time.
    case unknown(reason: String)

    package var isProved: Bool { if case .proved = self { true } else { false } }
    package var counterexample: Counterexample? { if case .counterexample(let c) = self { c } else { nil } }
}

/// A request, as a `security_tests` case ready to paste, with what each policy decided for it.
package struct Counterexample: Sendable {
    /// The case, indented for a `cases:` list (it starts with `- name:`).
    package var testCase: String
    /// What each policy of the question decided, in order.
    package var decisions: [Bool]
}

/// Questions about what policies allow, answered by an SMT solver with counterexamples.
package struct PolicyAnalyzer: Sendable {
    var solver: SMTSolver

    package init(solver: SMTSolver) { self.solver = solver }

    /// The longest text the long-text search writes (above the bundled policies' largest
    /// bound, 2,000 characters).
    static let longTextBound = 4_096

    /// Is every request of `shape` allowed?
    package func alwaysAllows(_ policy: SecurityPolicy, _ shape: RequestShape) -> Verdict {
        check(shape, [policy], name: "a request the policy denies", expectAllowOf: 0) { "(not \($0[0].allowed))" } confirm: { !$0[0].allowed }
    }

    /// Is every request of `shape` denied?
    package func alwaysDenies(_ policy: SecurityPolicy, _ shape: RequestShape) -> Verdict {
        check(shape, [policy], name: "a request the policy allows", expectAllowOf: 0) { $0[0].allowed } confirm: { $0[0].allowed }
    }

    /// Does no applicable allow statement ever error?
    package func neverErrors(_ policy: SecurityPolicy, _ shape: RequestShape) -> Verdict {
        check(shape, [policy], name: "a request on which an allow statement errors", expectAllowOf: 0, bad: { $0[0].errors }, confirm: { _ in true }, errorsConfirm: true)
    }

    /// Does `new` allow only what `old` allows (the change opens nothing)?
    package func implies(_ new: SecurityPolicy, _ old: SecurityPolicy, _ shape: RequestShape, name: String = "newly allowed", expectationOf: Int = 0) -> Verdict {
        check(shape, [new, old], name: name, expectAllowOf: expectationOf, trivial: { $0[0].allowed == $0[1].allowed || $0[0].allowed == "false" }) {
            "(and \($0[0].allowed) (not \($0[1].allowed)))"
        } confirm: { $0[0].allowed && !$0[1].allowed }
    }

    /// Are there no requests both allow?
    package func disjoint(_ a: SecurityPolicy, _ b: SecurityPolicy, _ shape: RequestShape) -> Verdict {
        check(shape, [a, b], name: "allowed by both", expectAllowOf: 0) { "(and \($0[0].allowed) \($0[1].allowed))" } confirm: { $0[0].allowed && $0[1].allowed }
    }

    /// Both directions of ``implies(_:_:_:name:)``: what `new` newly allows, what it newly denies.
    package func equivalent(_ old: SecurityPolicy, _ new: SecurityPolicy, _ shape: RequestShape) -> (newlyAllows: Verdict, newlyDenies: Verdict) {
        (implies(new, old, shape, name: "newly allowed"), implies(old, new, shape, name: "newly denied", expectationOf: 1).swappingDecisions())
    }

    /// Constructs the encoding abstracts for `policies` on `shape` (what a "possible" answer may
    /// depend on).
    package func abstractions(_ policies: [SecurityPolicy], _ shape: RequestShape) -> [Abstraction] {
        let encoder = makeEncoder(shape)
        _ = policies.map { PolicyEncoding($0, encoder) }
        return encoder.abstractions
    }

    func makeEncoder(_ shape: RequestShape) -> SymbolicEncoder {
        var index = 0
        var variables: [String: SymbolicValue] = [:]
        let segments: [SymbolicValue] = shape.segments.map { segment in
            switch segment {
            case .literal(let s): return .string(s)
            case .variable(let name):
                if let known = variables[name] { return known }
                index += 1
                // Each wildcard position is its own id (names may repeat across unrolled shapes).
                let v = SymbolicValue.term("(vstr path_segment_\(index))")
                variables[name] = v
                return v
            }
        }
        let encoder = SymbolicEncoder(method: shape.method, segments: segments)
        for i in stride(from: 1, through: index, by: 1) { _ = encoder.pathSegmentVariable(i) }
        return encoder
    }

    /// The common procedure. First the sound encoding, with a model: unsat is a proof; a model
    /// becomes a test case that is replayed. When that request does not reproduce (or cannot be
    /// written down), a second attempt restricted to values a test file spells exactly looks for
    /// another; a request found only by the sound encoding is "possible, unconfirmed".
    private func check(
        _ shape: RequestShape, _ policies: [SecurityPolicy], name: String, expectAllowOf expected: Int,
        trivial: ([PolicyEncoding]) -> Bool = { _ in false },
        bad: ([PolicyEncoding]) -> String, confirm: ([Decision]) -> Bool, errorsConfirm: Bool = false
    ) -> Verdict {
        let encoder = makeEncoder(shape)
        let encodings = policies.map { PolicyEncoding($0, encoder) }
        // The same formula on both sides (a part of the policy the change leaves alone, with
        // abstracted constructs as functions of their inputs), or nothing allowed: no request
        // can be a counterexample, without asking the solver.
        if trivial(encodings) { return .proved }
        let question = bad(encodings)
        let consistency = encoder.documentConsistency()
        var base = SMTPrelude.text
        base += encoder.declarations.joined(separator: "\n") + "\n"
        for constraint in encoder.constraints + consistency { base += "(assert \(constraint))\n" }
        base += "(assert \(question))\n"
        let watched = watchedTerms(encoder)
        let ask = "(check-sat)\n(get-value (\(watched.joined(separator: " "))))\n"
        var concrete = base
        for constraint in encoder.concreteConstraints { concrete += "(assert \(constraint))\n" }
        concrete += ask
        // REGIMEN_SMT_DUMP=folder keeps each query's script (and its concrete attempt's), for reading
        // or for another solver.
        func dump(_ text: String, _ suffix: String) {
            guard let folder = ProcessInfo.processInfo.environment["REGIMEN_SMT_DUMP"] else { return }
            let file = "\(folder)/\(shape.method.rawValue)\(shape.pattern.replacingOccurrences(of: "/", with: "_"))-\(name.replacingOccurrences(of: " ", with: "-"))\(suffix)"
            try? text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        dump(base + ask, ".smt2")
        dump(concrete, "-concrete.smt2")
        /// A model replayed: the counterexample, or why it is not one.
        func replay(_ modelText: String) -> Result<Counterexample, Unconfirmed> {
            guard let model = parseModel(modelText, watched) else { return .failure(Unconfirmed("the solver's model could not be read")) }
            let (caseText, built) = CounterexampleBuilder(encoder: encoder, model: model, shape: shape).testCase(name: name)
            guard let caseText, built else { return .failure(Unconfirmed("the solver's request cannot be written as a test case")) }
            guard let decisions = Replay.run(caseText: caseText, policies: policies, evaluateAll: errorsConfirm) else {
                return .failure(Unconfirmed("the solver's request is not one the test runner accepts"))
            }
            let confirmed = errorsConfirm ? decisions[0].evaluations.contains { if case .failed = $0.outcome { true } else { false } } : confirm(decisions)
            guard confirmed else {
                dump(caseText, "-not-reproduced-\(UUID().uuidString.prefix(8)).yaml")
                return .failure(Unconfirmed("the solver's request did not reproduce under the evaluator"))
            }
            let withExpectation = caseText.replacingOccurrences(of: "    expect: EXPECT", with: "    expect: \(decisions[expected].allowed ? "allow" : "deny")")
            return .success(Counterexample(testCase: withExpectation, decisions: decisions.map(\.allowed)))
        }
        // z3's default string solver stalls on a text of hundreds of characters (a `size() <=
        // 500` bound moved to 501), and the concrete attempt writes texts of at most 40: a search
        // with its other string solver and texts up to `longTextBound` finds one at once. Only a
        // model it finds counts (replayed like any other); its unsat proves nothing.
        func longTextSearch() -> Counterexample? {
            var longTexts = base
            for constraint in encoder.concreteConstraints(textBound: Self.longTextBound, plainIds: false) { longTexts += "(assert \(constraint))\n" }
            guard case .sat(let modelText) = solver.run(longTexts + ask, searchingStrings: true), case .success(let counterexample) = replay(modelText) else { return nil }
            return counterexample
        }
        let firstReason: String
        switch solver.run(base + ask) {
        case .unsat: return .proved
        case .unknown(let reason):
            if let counterexample = longTextSearch() { return .counterexample(counterexample) }
            return .unknown(reason: reason)
        case .sat(let modelText):
            switch replay(modelText) {
            case .success(let counterexample): return .counterexample(counterexample)
            case .failure(let why): firstReason = why.reason
            }
        }
        // With a product or quotient of unknowns, small numbers first, for half the time: the
        // solver's nonlinear arithmetic finishes there, and most counterexamples need no more.
        if encoder.hasNonlinearApproximation {
            var small = base
            for constraint in encoder.concreteConstraints + encoder.smallNumberConstraints { small += "(assert \(constraint))\n" }
            dump(small + ask, "-small.smt2")
            var quick = solver
            quick.timeoutSeconds = solver.timeoutSeconds / 2
            if case .sat(let modelText) = quick.run(small + ask), case .success(let counterexample) = replay(modelText) {
                return .counterexample(counterexample)
            }
        }
        switch solver.run(concrete) {
        case .sat(let modelText):
            switch replay(modelText) {
            case .success(let counterexample): return .counterexample(counterexample)
            case .failure(let why): return .possible(reason: why.reason, abstractions: encoder.abstractions)
            }
        case .unsat:
            if let counterexample = longTextSearch() { return .counterexample(counterexample) }
            return .possible(reason: "\(firstReason); no request with values a test file spells exactly (finite floats, short strings, lengths in UTF-16 equal to code points) exists, so it depends on such values or on an abstracted construct", abstractions: encoder.abstractions)
        case .unknown:
            return .possible(reason: "\(firstReason); the search for a concrete request ran out of time", abstractions: encoder.abstractions)
        }
    }

    /// The terms whose model values make the request.
    private func watchedTerms(_ encoder: SymbolicEncoder) -> [String] {
        var terms = [SymbolicEncoder.auth, SymbolicEncoder.uid, SymbolicEncoder.time, SymbolicEncoder.resourceExists]
        terms += encoder.segments.compactMap { if case .term(let t) = $0 { t } else { nil } }
        terms += encoder.fieldVariables.map(\.name)
        for ref in encoder.extraKeyMaps {
            if let extra = encoder.existingExtraKeys(ref) { terms.append(extra) }
            if let unread = encoder.unreadKeyCounts[ref] { terms.append(unread) }
        }
        for list in encoder.listFields {
            let (length, elements) = encoder.listContents(of: list)
            terms.append(length)
            terms += elements
        }
        for doc in encoder.documents { terms.append(doc.exists); terms += doc.segments }
        var seen = Set<String>()
        return terms.filter { seen.insert($0).inserted }
    }

    private func parseModel(_ text: String, _ watched: [String]) -> [String: SExpression]? {
        guard case .list(let pairs)? = SExpression.parse(text) else { return nil }
        var out: [String: SExpression] = [:]
        for (pair, name) in zip(pairs, watched) {
            guard case .list(let items) = pair, items.count == 2 else { return nil }
            out[name] = items[1]
        }
        return out.count == watched.count ? out : nil
    }
}

/// Why a model is not a confirmed counterexample.
struct Unconfirmed: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Verdict {
    /// For "newly denied" (asked as old-allows-and-new-denies), decisions listed new first.
    func swappingDecisions() -> Verdict {
        guard case .counterexample(var c) = self, c.decisions.count == 2 else { return self }
        c.decisions.swapAt(0, 1)
        return .counterexample(c)
    }
}
