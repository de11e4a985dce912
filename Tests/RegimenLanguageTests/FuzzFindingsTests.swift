import Testing
@testable import RegimenLanguage

/// Inputs the libFuzzer campaigns (scripts/fuzz.sh) turned up, kept as regressions.
@Suite struct FuzzFindingsTests {
    static func message(_ text: String) -> String? {
        do {
            _ = try CompiledExpression(text, environment: ExpressionEnvironment(variables: ["s"]))
            return nil
        } catch {
            return error.diagnostics.first.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        }
    }

    @Test("a control character after an expression is named once, not as 'unexpected unexpected'")
    func invalidCharacterAfterExpression() {
        // FuzzExpression: `[1, 2].toSet` followed by U+001E and more.
        #expect(Self.message("[1, 2].toSet\u{1E}) s[\u{FFFD}:3]!= [!, 3].toSet()") == "1:13 unexpected character '\\u{1E}'")
        #expect(Self.message("1 \u{7}") == "1:3 unexpected character '\\u{07}'")
    }
}
