extension Compiler {
    /// A literal pattern outside RE2's grammar is a compile error at the literal, as the
    /// emulator rejects the ruleset ("Invalid regular expression pattern"); a pattern computed
    /// at run time fails there instead.
    mutating func checkPatternLiteral(_ method: Method, _ arguments: [Expr]) {
        guard method == .matches || method == .split || method == .replace,
              case .literal(.string(let pattern), let span) = arguments.first,
              let problem = RegularExpression.syntaxError(in: pattern) else { return }
        error("expr.invalid-pattern",
              "invalid regular expression '\(pattern)': \(problem.message) (code point \(problem.offset) of the pattern)", span)
    }
}
