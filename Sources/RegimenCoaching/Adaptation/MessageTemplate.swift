package import RegimenLanguage

/// A message a rule file writes for people, with `{expression}` parts filled in when the rule
/// fires: `"soreness {soreness}"` → `"soreness 5"`. `{{` and `}}` stand for literal braces.
///
/// Each part is compiled when the rule file loads, so a misspelt name is a load-time error at the
/// part's own column, not a surprise in a change log.
package struct MessageTemplate: Sendable {
    enum Piece: Sendable {
        case text(String)
        case expression(CompiledExpression)
    }

    let pieces: [Piece]
    /// The template as written.
    package let text: String

    /// Compiles every `{…}` part of `source` against `environment`.
    /// - Throws: ``DiagnosticsError`` with every problem: unbalanced braces and each part's
    ///   compile errors, located in the file.
    init(_ source: SourceText, environment: ExpressionEnvironment) throws(DiagnosticsError) {
        var pieces: [Piece] = []
        var diagnostics = DiagnosticCollector()
        let scalars = Array(source.text.unicodeScalars)
        var literal = String.UnicodeScalarView()
        var index = 0
        func flushLiteral() {
            if !literal.isEmpty { pieces.append(.text(String(literal))) }
            literal = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == "{" && next == "{" || scalar == "}" && next == "}" {
                literal.append(scalar)
                index += 2
                continue
            }
            if scalar == "}" {
                diagnostics.error("rules.template", "unmatched '}' in message; write '}}' for a literal brace",
                                  at: source.location(ofScalarOffset: index))
                index += 1
                continue
            }
            guard scalar == "{" else {
                literal.append(scalar)
                index += 1
                continue
            }
            guard let end = Self.closingBrace(in: scalars, from: index + 1) else {
                diagnostics.error("rules.template", "unclosed '{' in message; write '{{' for a literal brace",
                                  at: source.location(ofScalarOffset: index))
                break
            }
            flushLiteral()
            let inner = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            let origin = source.location(ofScalarOffset: index + 1) ?? SourceLocation(file: "<message>", line: 1, column: index + 2)
            do {
                pieces.append(.expression(try CompiledExpression(SourceText(inner, startingAt: origin), environment: environment)))
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
            }
            index = end + 1
        }
        flushLiteral()
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        self.pieces = pieces
        self.text = source.text
    }

    /// A template without parts, for messages built in code.
    init(literal: String) {
        pieces = [.text(literal)]
        text = literal
    }

    /// The names the template's parts read.
    package var referencedVariables: [String] {
        pieces.flatMap { piece -> [String] in
            if case .expression(let expression) = piece { return expression.referencedVariables }
            return []
        }
    }

    /// The message with every part evaluated; a part that fails prints as `?` so a message is
    /// always produced (the rule's decision does not depend on its message).
    package func render(_ bindings: [String: Value]) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                out += text
            case .expression(let expression):
                if let value = try? expression.evaluate(bindings) {
                    out += ValueText.display(value)
                } else {
                    out += "?"
                }
            }
        }
        return out
    }

    /// The message with variables given in slot order (see ``CompiledExpression/evaluate(slots:limits:host:tracer:)``);
    /// parts reading a name in `unavailable` print as `?`.
    package func render(slots: [Value], unavailable: Set<String> = []) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                out += text
            case .expression(let expression):
                if unavailable.isDisjoint(with: expression.referencedVariables), let value = try? expression.evaluate(slots: slots) {
                    out += ValueText.display(value)
                } else {
                    out += "?"
                }
            }
        }
        return out
    }

    /// The offset of the `}` closing a part that starts at `start`, skipping quoted strings and
    /// nested braces (map literals).
    private static func closingBrace(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var quote: Unicode.Scalar?
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == "\\" { index += 2; continue }
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" {
                quote = scalar
            } else if scalar == "{" {
                depth += 1
            } else if scalar == "}" {
                if depth == 0 { return index }
                depth -= 1
            }
            index += 1
        }
        return nil
    }
}
