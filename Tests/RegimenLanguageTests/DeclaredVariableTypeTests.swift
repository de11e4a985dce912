@testable import RegimenLanguage
import Testing
import OrderedCollections

/// Variables declared with a type are checked when an expression is compiled, so a rule that
/// could only fail at run time is rejected where it is written.
@Suite struct DeclaredVariableTypeTests {
    static func environment() throws -> ExpressionEnvironment {
        try ExpressionEnvironment(declaring: [
            VariableDeclaration("readiness", .number, "score"),
            VariableDeclaration("adherence", ExpressionType.float.orNull, "percent"),
            VariableDeclaration("name", .string, "id"),
            VariableDeclaration("facts", .map, "facts"),
            VariableDeclaration("anything", .any, "unchecked"),
        ])
    }

    static func errors(_ text: String) throws -> [String] {
        do {
            _ = try CompiledExpression(text, environment: try environment())
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        }
    }

    @Test(arguments: [
        "readiness <= 'two'", "readiness + 'x'", "name > 3", "name - 1", "!readiness", "adherence < 'high'", "facts < 1", "readiness.size()",
    ])
    func aMismatchIsACompileErrorAtItsColumn(_ text: String) throws {
        let errors = try Self.errors(text)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("<expression>:1:") == true)
    }

    @Test(arguments: [
        "readiness <= 2", "readiness >= 2.5", "readiness * 2 + 1", "adherence == null || adherence < 70", "name == 'x'", "name + '!'",
        "facts.sleep_h >= 7", "anything <= 'two'", "anything + 1", "readiness == null", "[1, 2][readiness]",
    ])
    func wellTypedExpressionsCompile(_ text: String) throws {
        #expect(try Self.errors(text) == [])
    }

    @Test func typesAdmitExactlyTheirValues() {
        let values: [Value] = [.null, .bool(true), .int(1), .float(1.5), .string("a"), .list([]), .map([:])]
        let admitted: [(ExpressionType, Set<Int>)] = [
            (.number, [2, 3]), (ExpressionType.number.orNull, [0, 2, 3]), (.int, [2]), (.float, [3]), (.string, [4]), (.bool, [1]),
            (.list, [5]), (.map, [6]), (.any, Set(0..<7)),
        ]
        for (type, indices) in admitted {
            for (index, value) in values.enumerated() {
                #expect(type.admits(value) == indices.contains(index), "\(type) and \(value.typeName)")
            }
        }
    }

    @Test func aChildOfADeclaredEnvironmentKeepsTheTypes() throws {
        let child = try ExpressionEnvironment(variables: ["extra"], parent: try Self.environment())
        #expect(throws: DiagnosticsError.self) { try CompiledExpression("readiness <= 'two'", environment: child) }
        #expect((try? CompiledExpression("extra <= 'two'", environment: child)) != nil)
    }
}
