import Foundation
import Testing
import Yams
@testable import RegimenLanguage

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
            if scalar.style == .plain || scalar.style == .any {
                let name = scalar.tag.rawValue
                if name == Tag.Name.null.rawValue { return .null }
                if name == Tag.Name.bool.rawValue, let b = bool { return .bool(b) }
                if name == Tag.Name.int.rawValue, let i = int { return .int(Int64(i)) }
                if name == Tag.Name.float.rawValue, let f = float { return .float(f) }
            }
            return .string(scalar.string)
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
    @Test func tableIsPresentAndLarge() {
        #expect(ConformanceTable.cases.count >= 250, "the emulator-verified table must have at least 250 cases")
    }

    @Test(arguments: ConformanceTable.cases)
    func matchesTheEmulator(_ row: ConformanceCase) throws {
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
                Issue.record("\(row.testDescription): rejected at compile time: \(error)")
                return
            }
            return
        }
        let outcome = Result { () throws(EvaluationError) -> RegimenLanguage.Value in try compiled.evaluate(row.vars) }
        switch (row.expectation, outcome) {
        case (.value(let expected), .success(let actual)):
            #expect(actual == expected, "\(row.testDescription): got \(actual), expected \(expected)")
        case (.equals(let text), .success(let actual)):
            let expected = try CompiledExpression(text, environment: environment).evaluate(row.vars)
            #expect(actual == expected, "\(row.testDescription): got \(actual), expected \(expected)")
        case (.error(let fragment), .failure(let error)):
            if let fragment {
                #expect(error.message.lowercased().contains(fragment.lowercased()),
                        "\(row.testDescription): error '\(error.message)' lacks '\(fragment)'")
            }
        case (.error, .success(let actual)):
            Issue.record("\(row.testDescription): expected an error, got \(actual)")
        case (_, .failure(let error)):
            Issue.record("\(row.testDescription): unexpected error \(error.message)")
        }
    }
}
