extension Parser {
    /// Parses `function name(a, b) { let x = …; return …; }` starting at the `function` keyword.
    ///
    /// Semicolons after `let` are required; after `return` they are optional, as the emulator
    /// accepts. The `.rules` parser and rule files that declare helpers in Firestore syntax share it.
    mutating func parseFunctionDeclaration(source: SourceText) throws(Failure) -> FunctionDefinition {
        let keyword = advance()
        guard keyword.isKeyword("function") else {
            throw Failure(message: "expected 'function', found \(keyword.describe())", span: keyword.span)
        }
        guard case .identifier(let name) = current.kind else {
            throw Failure(message: "expected a function name, found \(current.describe())", span: current.span)
        }
        _ = advance()
        _ = try expect(.leftParen, "after the function name")
        var parameters: [(name: String, span: SourceSpan)] = []
        while case .identifier(let parameter) = current.kind {
            parameters.append((parameter, advance().span))
            guard current.isSymbol(.comma) else { break }
            _ = advance()
        }
        _ = try expect(.rightParen, "to close the parameter list")
        _ = try expect(.leftBrace, "to open the function body")
        var lets: [(name: String, value: Expr, span: SourceSpan)] = []
        while current.isKeyword("let") {
            _ = advance()
            guard case .identifier(let letName) = current.kind else {
                throw Failure(message: "expected a name after 'let', found \(current.describe())", span: current.span)
            }
            let nameSpan = advance().span
            _ = try expect(.equal, "after 'let \(letName)'")
            let value = try parseExpression()
            _ = try expect(.semicolon, "after a let binding")
            lets.append((letName, value, nameSpan))
        }
        guard current.isKeyword("return") else {
            throw Failure(message: "expected 'return' in function '\(name)', found \(current.describe())", span: current.span)
        }
        _ = advance()
        let result = try parseExpression()
        if current.isSymbol(.semicolon) { _ = advance() }
        _ = try expect(.rightBrace, "to close function '\(name)'")
        return FunctionDefinition(
            name: name, parameters: parameters, lets: lets, result: result, source: source,
            location: source.location(ofScalarOffset: keyword.span.start))
    }

    /// Parses every function declaration in `text` (a sequence of `function …` blocks).
    static func parseFunctionDeclarations(_ source: SourceText) -> Result<[FunctionDefinition], Failure> {
        var parser = Parser(source.text)
        var definitions: [FunctionDefinition] = []
        do {
            while current(parser).kind != .endOfInput {
                definitions.append(try parser.parseFunctionDeclaration(source: source))
            }
            return .success(definitions)
        } catch {
            return .failure(error)
        }
    }

    private static func current(_ parser: Parser) -> Token { parser.current }
}
