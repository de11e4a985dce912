import Foundation
@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import Testing

/// Refactorings of every bundled Firestore policy that change no decision are proved
/// equivalent on every match path and method: `rules convert` round trips (`.rules` → YAML →
/// `.rules`, or the other way for a YAML policy), every declared name renamed (functions,
/// parameters, `let`s, wildcards), and the conjuncts of every condition and function body
/// reversed (`&&` absorbs an error the same way in either order).
@Suite struct RefactoringTests {
    static let policies = MutantTests.policies.map(\.0)

    @Test(arguments: policies) func convertRoundTripsAreProvedEquivalent(_ file: String) throws {
        guard let analyzer = SolverSupport.analyzer(timeout: 30) else { return }
        let policy = try SolverSupport.bundled(file)
        let native = policy.origin.syntax == .native
        let converted = try PolicyLoader.parse(native ? PolicyPrinter.yaml(policy) : PolicyPrinter.native(policy), file: native ? "converted.yaml" : "converted.rules")
        let back = try PolicyLoader.parse(native ? PolicyPrinter.native(converted) : PolicyPrinter.yaml(converted), file: native ? "back.rules" : "back.yaml")
        try expectEquivalent(policy, converted, analyzer, "\(file) → converted")
        try expectEquivalent(policy, back, analyzer, "\(file) → converted → back")
    }

    @Test(arguments: policies) func renamedNamesAreProvedEquivalent(_ file: String) throws {
        guard let analyzer = SolverSupport.analyzer(timeout: 30) else { return }
        let policy = try SolverSupport.bundled(file)
        let renamed = try PolicyLoader.parse(Self.renamingDeclaredNames(policy), file: "renamed.rules")
        // The renaming really happened (a test that cannot fail is a defect).
        #expect(renamed.allFunctions.map(\.name) == policy.allFunctions.map { $0.name + "Renamed" })
        try expectEquivalent(policy, renamed, analyzer, "\(file) renamed")
    }

    @Test(arguments: policies) func reorderedConjunctsAreProvedEquivalent(_ file: String) throws {
        guard let analyzer = SolverSupport.analyzer(timeout: 30) else { return }
        let policy = try SolverSupport.bundled(file)
        let (reordered, changed) = Self.reversingConjuncts(policy)
        #expect(changed > 0)
        try expectEquivalent(policy, reordered, analyzer, "\(file) with conjuncts reversed")
    }

    func expectEquivalent(_ a: SecurityPolicy, _ b: SecurityPolicy, _ analyzer: PolicyAnalyzer, _ what: String) throws {
        _ = try CompiledPolicy(b)
        let shapes = PolicyComparison.diffShapes(a, b)
        #expect(!shapes.isEmpty)
        for shape in shapes {
            let (allows, denies) = analyzer.equivalent(a, b, shape)
            #expect(allows.isProved && denies.isProved, "\(what): \(shape): \(allows) / \(denies)")
        }
    }

    /// The policy's native text with every function, parameter, `let` and wildcard name given a
    /// suffix, everywhere it is used as a name (not after a `.`, not inside quotes, not a path
    /// segment after `/`).
    static func renamingDeclaredNames(_ policy: SecurityPolicy) -> String {
        var names = Set<String>()
        for function in policy.allFunctions {
            names.insert(function.name)
            names.formUnion(function.parameters)
            names.formUnion(function.lets.map(\.name))
        }
        func visit(_ block: MatchBlock) {
            for segment in block.pattern.segments {
                switch segment {
                case .wildcard(let name), .recursive(let name): names.insert(name)
                case .literal: break
                }
            }
            block.children.forEach(visit)
        }
        policy.matches.forEach(visit)
        var text = PolicyPrinter.native(policy)
        for name in names.sorted() {
            let pattern = "(?<![.\\w'\"/])\(NSRegularExpression.escapedPattern(for: name))(?![\\w'\"])"
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\(name)Renamed")
        }
        return text
    }

    /// Every condition and function body whose top is a chain of `&&`, with the chain reversed;
    /// and how many were changed.
    static func reversingConjuncts(_ policy: SecurityPolicy) -> (SecurityPolicy, Int) {
        var changed = 0
        func reversed(_ text: String) -> String? {
            guard case .success(let root) = Parser.parse(text) else { return nil }
            var conjuncts: [Expr] = []
            func flatten(_ e: Expr) {
                if case .binary(.and, let l, let r, _) = e { flatten(l); flatten(r) } else { conjuncts.append(e) }
            }
            flatten(root)
            guard conjuncts.count > 1 else { return nil }
            let scalars = Array(text.unicodeScalars)
            let pieces = conjuncts.reversed().map { e in
                "(" + String(String.UnicodeScalarView(scalars[max(0, e.span.start)..<min(scalars.count, e.span.end)])) + ")"
            }
            // A parenthesised conjunct's span may leave out its closing parenthesis: such an
            // expression is left as it is.
            let text = pieces.joined(separator: " && ")
            guard case .success = Parser.parse(text) else { return nil }
            changed += 1
            return text
        }
        var out = policy
        for (index, allow) in policy.allAllows.enumerated() {
            if let condition = allow.condition, let text = reversed(condition.text) {
                out = PolicyMutants.replacingCondition(out, index, text)
            }
        }
        for function in policy.allFunctions {
            if let text = reversed(function.body.text) { out = PolicyMutants.replacingFunction(out, function.location, text) }
        }
        return (out, changed)
    }
}
