import Foundation
import RegimenLanguage
package import RegimenRules

/// `kind: plan_tests` files: a coach's cases for the planner. Each case gives a profile (inline
/// or a file), optionally check-ins (and a plan) to adapt and a previous profile to diff against,
/// and what the result must be: declarative `expect:` keys for the common measures and `assert:`
/// expressions in the rules language for everything else.
///
/// `regimen test FILE…` runs them (beside `security_tests` files); `regimen check` validates them
/// with every other kind.
package struct PlanTestsFile: RuleFileKind {
    package static let kind = "plan_tests"
    package static var expressionScopes: [ExpressionScope] { [PlanTestCase.assertScope] }
    package let cases: [PlanTestCase]

    package static func decode(_ document: inout MappingDecoder) -> PlanTestsFile? {
        let context = document.context
        let file = document.node.location.file
        document.allow("description")
        guard let cases = document.list("cases", { node, path in PlanTestCase.decode(node, at: path, file: file, in: context) }) else { return nil }
        context.checkUnique(cases.map { (id: $0.name, location: $0.location) }, what: "plan-test case")
        return PlanTestsFile(cases: cases)
    }
}

/// One case of a plan-test file.
package struct PlanTestCase: Sendable {
    /// A profile, check-ins or plan: written inline, or a file named relative to the test file.
    package enum Input: Sendable {
        case inline(LocatedNode)
        /// `path` as the process can open it; `location` is where the test file names it.
        case file(path: String, location: SourceLocation)
    }

    /// An `assert:` expression, with its text for messages.
    struct Assertion: Sendable {
        package var text: String
        package var expression: CompiledExpression
        package var location: SourceLocation
    }

    package var name: String
    package var location: SourceLocation
    package var profile: Input
    /// The profile before a change: the case also runs the auto-adjust diff to `profile`.
    var previousProfile: Input?
    /// Check-ins, logged sessions, adherence and weight trend: the case also adapts the plan.
    var checkIns: Input?
    /// The plan to adapt (a `regimen plan --format json` document); the profile's plan otherwise.
    package var plan: Input?
    /// A split the rules offer for the profile's days (`regimen plan --split`).
    package var split: String?
    /// A goal for the supplements shortlist other than the profile's (`regimen supplements --goal`).
    package var supplementGoal: String?
    package var expectations: [PlanExpectation]
    var assertions: [Assertion]

    /// What `assert:` expressions may read.
    static let assertScope = ExpressionScope("assert", "once per case, after the plan (and any adaptation and diff) ran", [
        VariableDeclaration("plan", ExpressionType(.map), "the final plan, as `regimen plan --format json` writes it (the patched plan when the case adapts)"),
        VariableDeclaration("generated", ExpressionType(.map), "the plan generated from the profile, before any adaptation"),
        VariableDeclaration("supplements", ExpressionType(.map), "the supplements advice, as `regimen supplements --format json` writes it"),
        VariableDeclaration("adapted", ExpressionType(.map, nullable: true), "the adaptation (`patched_plan`, `change_log`, `changes`, `warnings`, `notes`), or null"),
        VariableDeclaration("diff", ExpressionType(.map, nullable: true), "the auto-adjust diff from previous_profile, as `regimen diff --format json` writes it, or null"),
        VariableDeclaration("profile", ExpressionType(.map), "the profile as the case writes it"),
        VariableDeclaration("weekly", ExpressionType(.map), "plan.training.weekly_sets by muscle: weekly.chest.planned, weekly.chest.band"),
        VariableDeclaration("blocks", ExpressionType(.list), "every block of every workout of plan, in order"),
        VariableDeclaration("exercises", ExpressionType(.list), "the exercise ids of plan's blocks, each once, in order"),
        VariableDeclaration("reps", ExpressionType(.list), "the rep prescriptions of plan's blocks (`6–10`, `30–45s`), each once, in order"),
        VariableDeclaration("meals", ExpressionType(.list), "plan.ingredients.meals"),
    ])

    /// What the schema says of an inline profile, check-ins or plan.
    static let inlineInputNote = "Written inline; checked when the case runs against its own schema (profile.schema.json, checkins.schema.json)."

    static func decode(_ node: LocatedNode, at path: DecodingPath, file: String, in context: DecodingContext) -> PlanTestCase? {
        context.mapping(node, at: path) { map -> PlanTestCase? in
            let name = map.required("name", as: String.self)
            if let name { map.path = DecodingPath(subject: "case '\(name)'") }
            map.allow("description")
            func input(_ key: String, required: Bool = false) -> Input? {
                guard let value = required ? map.requiredNode(key) : map.node(key) else { return nil }
                // The forms read below: a mapping (checked against its own kind when the case
                // runs) or a non-empty path.
                if context.describe(.anyOf([.mapping(MappingShape(otherKeys: .anything(note: Self.inlineInputNote))), .pattern("[\\s\\S]")]), for: value) {
                    return nil
                }
                if value.mapping != nil { return .inline(value) }
                if case .string(let text)? = value.scalar?.value(), !text.isEmpty {
                    let folder = (file as NSString).deletingLastPathComponent
                    let resolved = text.hasPrefix("/") || folder.isEmpty ? text : (folder as NSString).appendingPathComponent(text)
                    return .file(path: resolved, location: value.location)
                }
                context.wrongType(value, expected: "a mapping, or a file path relative to this test file", at: map.path.appending(key: key))
                return nil
            }
            let profile = input("profile", required: true)
            let previous = input("previous_profile")
            let checkIns = input("checkins")
            let plan = input("plan")
            if plan != nil, checkIns == nil {
                context.error("tests.plan", map.path.message("is only read to adapt it: add 'checkins:'"), at: map.location(ofKey: "plan"))
            }
            let split = map.optional("split", as: String.self)
            let goal = map.optional("supplement_goal", as: String.self)
            var expectations: [PlanExpectation] = []
            if let expect = map.node("expect") {
                expectations = PlanExpectation.decodeAll(expect, at: map.path.appending(key: "expect"), in: context, muscles: nil) ?? []
            }
            var assertions: [Assertion] = []
            if let assertNode = map.node("assert"), context.isDescribing {
                // One expression, or a list of them.
                _ = context.describe(
                    .noted(.anyOf([.expression, .list(.expression)]), note: "Each assertion must compute true or false: what an expression computes is checked by the loader alone."),
                    for: assertNode)
            } else if let assertNode = map.node("assert") {
                let items = assertNode.sequence ?? [assertNode]
                let environment = context.environment(declaring: assertScope.variables)
                for (index, item) in items.enumerated() {
                    let itemPath = assertNode.sequence == nil ? map.path.appending(key: "assert") : map.path.appending(key: "assert").appending(index: index)
                    guard let expression = context.compileExpression(item, at: itemPath, in: environment) else { continue }
                    let type = expression.inferredType.base
                    if type != .any, type != .bool {
                        // What an expression computes is no part of the file's shape: its own id.
                        context.error("rules.expression-type", itemPath.message("must be true or false, not \(expression.inferredType)"), at: item.location)
                        continue
                    }
                    assertions.append(Assertion(text: item.scalar?.text ?? "", expression: expression, location: item.location))
                }
            }
            if expectations.isEmpty, assertions.isEmpty, map.node("expect") == nil {
                context.error("tests.expect", map.path.prefixed("a case needs 'expect:' or 'assert:'"), at: node.location)
            }
            guard let name, let profile else { return nil }
            return PlanTestCase(
                name: name, location: node.location, profile: profile, previousProfile: previous, checkIns: checkIns, plan: plan,
                split: split, supplementGoal: goal, expectations: expectations, assertions: assertions)
        }
    }
}

extension PlanTestsFile {
    /// Whether the file at `path` declares `kind: plan_tests` (`regimen test` runs it with the
    /// planner); an unreadable file is not, and is left to the security tests' reader to report.
    package static func declares(file path: String) -> Bool {
        guard let text = try? InputFile.read(path: path) else { return false }
        return YAMLReader.read(text, file: path).document?["kind"]?.scalar?.text == kind
    }
}
