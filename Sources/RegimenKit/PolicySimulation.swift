package import Foundation
import RegimenLanguage
import RegimenSecurity

/// What the security simulator (the page's Rules Playground for policies) asks of a policy: one
/// request decided with the reason located in the policy text, and a tests text run with
/// per-sub-expression coverage. Answers are JSON values for the service.
extension Policy {
    /// A policy compiled from text a caller pasted: `.rules` syntax, or the YAML form when
    /// `syntax` is `yaml` (or, with no syntax given, when the text says `kind: security_rules`).
    /// Its locations name `pasted.rules` (or `pasted.yaml`).
    /// - Throws: ``RegimenError/Code/policy`` with every problem, located in the pasted text.
    package static func pasted(_ text: String, syntax: String?) throws(RegimenError) -> Policy {
        let yaml = syntax.map { $0 == "yaml" || $0 == "yml" } ?? text.contains("kind: security_rules")
        let file = yaml ? "pasted.yaml" : "pasted.rules"
        do {
            let compiled = try CompiledPolicy(try PolicyLoader.parse(text, file: file))
            return Policy(name: "pasted", file: URL(fileURLWithPath: file), compiled: compiled, testsFile: nil)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The request of a simulator body (JSON or YAML): a test case's keys with the operation as
    /// `method` and `path`; the keys choosing the policy are skipped.
    /// - Throws: ``RegimenError/Code/policy`` with every problem, located in `name`, or
    ///   ``RegimenError/Code/request`` for a body that is not UTF-8 or too large.
    package func simulatorRequest(from data: Data, name: String = "<body>") throws(RegimenError) -> PolicyRequestBody {
        let text = try RequestDocument.text(data, name: name)
        do {
            return PolicyRequestBody(body: try SimulatorBody.request(text, file: name, service: service))
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The policy's text as compiled (offsets in answers count Unicode scalars of it).
    package var sourceText: String { compiled.policy.origin.text }
    /// The file its locations name.
    package var sourceFile: String { compiled.policy.origin.file }

    /// Decides the single request of `body` with every candidate statement evaluated, as
    /// `{decision, allowed, method, path, reason, evaluations: [{statement, location, outcome,
    /// error?, bindings, reason, range?}], deciding: [range]}`, where a range is `{text, start:
    /// {line, column, offset}, end: {…}, outcome, operands: [{text, value}], via}`. `deciding`
    /// holds the granting statement's condition for an allow, and for a deny the sub-expression
    /// that made each evaluated statement false or fail.
    package func simulate(_ body: PolicyRequestBody) -> Value {
        guard let item = body.body.items.first else { return .null }
        let decision = compiled.decide(item.request, store: item.documents, options: DecisionOptions(explain: true, evaluateAll: true))
        let file = FileText(sourceText)
        var evaluations: [Value] = []
        var deciding: [Value] = []
        for evaluation in decision.evaluations {
            var fields = Decision.evaluationFields(evaluation)
            // The page marks text: the statement's place as line, column and offset.
            fields["location"] = Self.point(evaluation.statement.location, file)
            var range: Value?
            if case .granted = evaluation.outcome {
                range = Self.conditionRange(evaluation.statement, file)
            } else if let culprit = evaluation.culprit {
                range = Self.culpritRange(culprit, file)
            }
            if let range {
                fields["range"] = range
                if evaluation.outcome == .granted ? decision.allowed && evaluation.statement == decision.grantedBy : !decision.allowed {
                    deciding.append(range)
                }
            }
            evaluations.append(.map(fields))
        }
        var answer = decision.contractValue().mapValue ?? [:]
        answer["evaluations"] = .list(evaluations)
        answer["deciding"] = .list(deciding)
        return .map(answer)
    }

    /// Runs a security-tests body against this policy (its `rules:` key, if any, is not
    /// followed) with coverage: `results` as `regimen test --format json` prints them, and
    /// `coverage` as ``coverageValue(_:)`` describes.
    /// - Throws: ``RegimenError/Code/policy`` with every problem of the body, located in `name`.
    package func simulateTests(body data: Data, name: String = "<tests>", documents: DocumentStore = DocumentStore()) throws(RegimenError) -> String {
        let text = try RequestDocument.text(data, name: name)
        let result: SecurityTestFileResult
        let recorder = CoverageRecorder(policy: compiled)
        do {
            var suite = try SecurityTestSuite.parse(text, file: name, policy: compiled.policy)
            suite.documents = documents.merging(suite.documents)
            result = SecurityTestRunner(suite: suite, policy: compiled).run(coverage: recorder)
        } catch {
            throw .policy(error.diagnostics)
        }
        let results = SecurityTestReport.json([result]).trimmingCharacters(in: .whitespacesAndNewlines)
        let coverage = Self.coverageValue(CoverageReport(recorder), file: FileText(sourceText)).jsonString(pretty: true)
        return "{\n\"results\": \(results),\n\"coverage\": \(coverage)\n}\n"
    }

    /// Coverage as JSON: `{statements: {covered, total}, functions: {covered, total},
    /// subExpressions: [{owner, text, start, end, evaluated, true, false, error, values: [{value,
    /// count}], moreValues, errors}]}`, sub-expressions in text order.
    static func coverageValue(_ report: CoverageReport, file: FileText) -> Value {
        let statements = report.statementsCovered, functions = report.functionsCovered
        let entries = report.subExpressions().map { entry -> Value in
            let owner: String = switch entry.owner {
            case .allow(let id): "allow \(id)"
            case .function(let index): "function \(index)"
            }
            let summary = entry.summary
            return .map([
                "owner": .string(owner),
                "text": .string(entry.text),
                "start": .map(["line": .int(Int64(entry.start.line)), "column": .int(Int64(entry.start.column)), "offset": .int(Int64(entry.startOffset))]),
                "end": .map(["line": .int(Int64(entry.end.line)), "column": .int(Int64(entry.end.column)), "offset": .int(Int64(entry.endOffset))]),
                "evaluated": .int(Int64(summary.evaluated)),
                "true": .int(Int64(summary.isTrue)),
                "false": .int(Int64(summary.isFalse)),
                "error": .int(Int64(summary.errored)),
                "values": .list(summary.values.map { .map(["value": .string(ValueSummary.shortened($0.value.description)), "count": .int(Int64($0.count))]) }),
                "moreValues": .int(Int64(summary.moreValues)),
                "errors": .list(summary.errors.map(Value.string)),
                "summary": .string(summary.evaluated == 0 ? "never evaluated" : summary.description),
            ])
        }
        return .map([
            "statements": .map(["covered": .int(Int64(statements.covered)), "total": .int(Int64(statements.total))]),
            "functions": .map(["covered": .int(Int64(functions.covered)), "total": .int(Int64(functions.total))]),
            "subExpressions": .list(entries),
        ])
    }

    private static func point(_ location: SourceLocation, _ file: FileText) -> Value {
        .map([
            "line": .int(Int64(location.line)), "column": .int(Int64(location.column)),
            "offset": file.offset(of: location).map { .int(Int64($0)) } ?? .null,
        ])
    }

    /// The whole condition of a statement that granted (`allow read;` has none: its keyword).
    private static func conditionRange(_ statement: AllowStatement, _ file: FileText) -> Value? {
        guard let condition = statement.condition else {
            return range(text: "allow \(statement.methodList)", start: statement.location, end: statement.location.advanced(byColumns: 5),
                         outcome: "true", operands: [], via: [], file)
        }
        let source = condition.source
        guard let start = source.location(ofScalarOffset: 0), let end = source.location(ofScalarOffset: source.text.unicodeScalars.count) else { return nil }
        return range(text: condition.text, start: start, end: end, outcome: "true", operands: [], via: [], file)
    }

    private static func culpritRange(_ culprit: Culprit, _ file: FileText) -> Value? {
        guard let start = culprit.location else { return nil }
        let outcome: String = switch culprit.outcome {
        case .success(let value): value.description
        case .failure(let error): "error: \(error.message)"
        }
        let operands: [Value] = culprit.operands.filter { $0.text != culprit.text }.map { operand in
            let value: String = switch operand.value {
            case .success(let value): value.description
            case .failure(let error): "error: \(error.message)"
            }
            return .map(["text": .string(operand.text), "value": .string(value)])
        }
        return range(text: culprit.text, start: start, end: culprit.endLocation ?? start, outcome: outcome, operands: operands, via: culprit.via, file)
    }

    private static func range(
        text: String, start: SourceLocation, end: SourceLocation, outcome: String, operands: [Value], via: [String], _ file: FileText
    ) -> Value {
        .map([
            "text": .string(text),
            "start": point(start, file),
            "end": point(end, file),
            "outcome": .string(outcome),
            "operands": .list(operands),
            "via": .list(via.map(Value.string)),
        ])
    }
}
