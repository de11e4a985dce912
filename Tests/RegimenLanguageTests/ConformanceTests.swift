import Foundation
import Testing
import Yams
@testable import RegimenLanguage
import OrderedCollections

/// One row of the emulator-verified conformance table (`Conformance/*.yaml`).
struct ConformanceCase: CustomTestStringConvertible, Sendable {
    enum Expectation: Sendable {
        case value(RegimenLanguage.Value)
        case equals(String)
        /// An error whose message contains the fragment (nil: any error).
        case error(String?)
    }

    var file: String
    var line: Int
    var expr: String
    var vars: [String: RegimenLanguage.Value]
    var functions: String?
    var expectation: Expectation

    var testDescription: String { "\(file):\(line): \(expr)" }
}

enum ConformanceTable {
    static func load() throws -> [ConformanceCase] {
        guard let directory = Bundle.module.url(forResource: "Conformance", withExtension: nil) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var cases: [ConformanceCase] = []
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard let root = try Yams.compose(yaml: text), let rows = root["cases"]?.sequence else { continue }
            for row in rows {
                guard let expr = row["expr"]?.string else { continue }
                var vars: [String: RegimenLanguage.Value] = [:]
                if let mapping = row["vars"]?.mapping {
                    for (key, value) in mapping { vars[key.string ?? ""] = value.regimenValue }
                }
                let expectation: ConformanceCase.Expectation
                if let value = row["value"] {
                    expectation = .value(value.regimenValue)
                } else if let equals = row["equals"]?.string {
                    expectation = .equals(equals)
                } else if let error = row["error"] {
                    expectation = .error(error.bool == true ? nil : error.string)
                } else {
                    continue
                }
                cases.append(ConformanceCase(
                    file: url.lastPathComponent, line: row.mark?.line ?? 0, expr: expr, vars: vars,
                    functions: row["function"]?.string ?? row["functions"]?.string, expectation: expectation))
            }
        }
        return cases
    }

    static let cases: [ConformanceCase] = (try? load()) ?? []
}

extension Yams.Node {
    /// The rules-language value of a YAML node: ints stay ints, floats floats, maps keep order.
    var regimenValue: RegimenLanguage.Value {
        switch self {
        case .scalar(let scalar):
            // YAML 1.2 core schema for plain scalars; quoted scalars are strings.
            guard scalar.style == .plain || scalar.style == .any else { return .string(scalar.string) }
            let text = scalar.string
            switch text {
            case "null", "Null", "NULL", "~", "": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case ".inf", ".Inf", "+.inf": return .float(.infinity)
            case "-.inf", "-.Inf": return .float(-.infinity)
            case ".nan", ".NaN": return .float(.nan)
            default: break
            }
            if let i = Int64(text) { return .int(i) }
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let f = Double(text) { return .float(f) }
            return .string(text)
        case .sequence(let sequence):
            return .list(sequence.map(\.regimenValue))
        case .mapping(let mapping):
            var map = RegimenLanguage.Value.Map()
            for (key, value) in mapping { map[key.string ?? ""] = value.regimenValue }
            return .map(map)
        case .alias:
            return .null
        }
    }
}

@Suite struct ConformanceTests {
    /// Structural equality, with NaN equal to itself (the table records NaN results).
    static func same(_ a: RegimenLanguage.Value, _ b: RegimenLanguage.Value) -> Bool {
        if case .float(let x) = a, case .float(let y) = b, x.isNaN, y.isNaN { return true }
        return a == b
    }

    @Test func tableIsPresentAndLarge() {
        #expect(ConformanceTable.cases.count >= 250, "the emulator-verified table must have at least 250 cases")
    }

    /// Cases where Regimen knowingly differs from the emulator, with the reason. Keep this short.
    static let knownDifferences: [String: String] = [
        // Java strings are UTF-16 and can hold half an emoji; Swift strings cannot, so each half
        // reads as U+FFFD and the halves do not join back into the emoji.
        "'😀x'[0] + '😀x'[1] == '😀'": "a Swift string cannot hold a lone UTF-16 surrogate",
    ]

    @Test func knownDifferencesAreStillInTheTable() {
        let expressions = Set(ConformanceTable.cases.map(\.expr))
        for expression in Self.knownDifferences.keys {
            #expect(expressions.contains(expression), "stale known difference: \(expression)")
        }
    }

    @Test(arguments: ConformanceTable.cases)
    func matchesTheEmulator(_ row: ConformanceCase) throws {
        if Self.knownDifferences[row.expr] != nil { return }
        var functions: [FunctionDefinition] = []
        let functionSource = SourceText(row.functions ?? "", startingAt: SourceLocation(file: row.file, line: row.line, column: 1))
        if row.functions != nil {
            functions = try Parser.parseFunctionDeclarations(functionSource).get()
        }
        let environment = try ExpressionEnvironment(variables: row.vars.keys.sorted(), definitions: functions)
        let compiled: CompiledExpression
        do {
            compiled = try CompiledExpression(row.expr, environment: environment)
        } catch {
            // A static rejection is acceptable only where the emulator also fails.
            guard case .error = row.expectation else {
                Issue.record("MISMATCH \(row.testDescription) | rejected at compile time: \(error) | expected a value")
                return
            }
            return
        }
        let outcome = Result { () throws(EvaluationError) -> RegimenLanguage.Value in try compiled.evaluate(row.vars) }
        switch (row.expectation, outcome) {
        case (.value(let expected), .success(let actual)):
            if !Self.same(actual, expected) { Issue.record("MISMATCH \(row.testDescription) | got \(actual) | expected \(expected)") }
        case (.equals(let text), .success(let actual)):
            let expected = try CompiledExpression(text, environment: environment).evaluate(row.vars)
            if !Self.same(actual, expected) { Issue.record("MISMATCH \(row.testDescription) | got \(actual) | expected \(expected)") }
        case (.error(let fragment), .failure(let error)):
            if let fragment, !error.message.lowercased().contains(fragment.lowercased()) {
                Issue.record("MISMATCH \(row.testDescription) | error '\(error.message)' | expected error '\(fragment)'")
            }
        case (.error(let fragment), .success(let actual)):
            Issue.record("MISMATCH \(row.testDescription) | got \(actual) | expected error '\(fragment ?? "")'")
        case (_, .failure(let error)):
            Issue.record("MISMATCH \(row.testDescription) | error '\(error.message)' | expected a value")
        }
    }
}
