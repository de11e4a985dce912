import RegimenLanguage

/// Reads the native Firestore rules syntax (`rules_version = '2'; service cloud.firestore { … }`)
/// into a ``SecurityPolicy``.
///
/// Leniency follows the emulator: `;` after an allow condition or a `return` may be left out
/// when the next token starts a statement or closes the block, both quote styles are accepted,
/// and functions may be declared after the matches that use them.
enum RulesFileParser {
    /// Parses `text` read from `file`.
    /// - Throws: ``DiagnosticsError`` listing every structural problem found.
    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        var parser = Parser(scanner: RulesScanner(text: text, file: file))
        let policy = parser.parseFile(text: text)
        if parser.diagnostics.hasErrors { throw DiagnosticsError(parser.diagnostics.diagnostics) }
        guard let policy else { throw DiagnosticsError([.error("rules.syntax", "no service block", at: SourceLocation(file: file, line: 1, column: 1))]) }
        return policy
    }
}

private struct Parser {
    var scanner: RulesScanner
    var diagnostics = DiagnosticCollector()
    /// Current `match` nesting. Firestore allows 10 levels; a generous bound keeps a hostile
    /// file from exhausting the stack.
    var depth = 0
    static let maxDepth = 64

    /// Thrown internally to abandon the current statement after a diagnostic.
    struct Abandon: Error {}

    mutating func fail(_ message: String, at offset: Int? = nil) -> Abandon {
        diagnostics.error("rules.syntax", message, at: scanner.location(of: offset ?? scanner.index))
        return Abandon()
    }

    mutating func parseFile(text: String) -> SecurityPolicy? {
        var version: String?
        var policy: SecurityPolicy?
        do {
            scanner.skipTrivia()
            if scanner.peekIdentifier() == "rules_version" {
                _ = scanner.identifier()
                guard scanner.consume("=") else { throw fail("expected '=' after rules_version") }
                let at = scanner.index
                guard let value = scanner.stringLiteral() else { throw fail("expected a quoted version after 'rules_version ='") }
                guard value == "1" || value == "2" else { throw fail("unsupported rules_version '\(value)'; use '1' or '2'", at: at) }
                version = value
                _ = scanner.consume(";")
            }
            scanner.skipTrivia()
            let serviceAt = scanner.index
            guard scanner.identifier() == "service" else { throw fail("expected 'service'") }
            var name = ""
            while let part = scanner.identifier() {
                name += part
                guard scanner.consume(".") else { break }
                name += "."
            }
            guard let service = SecurityService(rawValue: name) else {
                throw fail("unknown service '\(name)'; expected cloud.firestore or firebase.storage", at: serviceAt)
            }
            guard scanner.consume("{") else { throw fail("expected '{' after service name") }
            let body = try parseBody(closing: true)
            policy = SecurityPolicy(
                rulesVersion: version, service: service, functions: body.functions, matches: body.matches,
                origin: PolicyOrigin(file: scanner.file, text: text, syntax: .native))
            if !body.allows.isEmpty {
                diagnostics.error("rules.allow-outside-match", "allow statements must be inside a match block", at: body.allows[0].location)
            }
            scanner.skipTrivia()
            if !scanner.isAtEnd { throw fail("only one service block is allowed per file") }
        } catch {
            return nil
        }
        if let policy { validateRecursiveWildcards(policy) }
        return policy
    }

    struct Body {
        var functions: [FunctionDeclaration] = []
        var allows: [AllowStatement] = []
        var matches: [MatchBlock] = []
    }

    /// Parses statements up to the closing `}`.
    mutating func parseBody(closing: Bool) throws(Abandon) -> Body {
        var body = Body()
        while true {
            scanner.skipTrivia()
            if scanner.isAtEnd { throw fail("missing '}' at end of file") }
            if scanner.consume("}") { return body }
            let at = scanner.index
            guard let keyword = scanner.identifier() else { throw fail("expected 'match', 'allow', 'function' or '}'") }
            switch keyword {
            case "match": body.matches.append(try parseMatch(at: at))
            case "allow": body.allows.append(try parseAllow(at: at))
            case "function": body.functions.append(try parseFunction(at: at))
            default: throw fail("unexpected '\(keyword)'; expected 'match', 'allow', 'function' or '}'", at: at)
            }
        }
    }

    mutating func parseMatch(at: Int) throws(Abandon) -> MatchBlock {
        guard let (text, pathStart) = scanner.matchPath() else { throw fail("expected a path starting with '/' after 'match'") }
        let pattern: PathPattern
        switch PathPattern.parse(text) {
        case .success(let p): pattern = p
        case .failure(let error): throw fail(error.message, at: pathStart)
        }
        guard scanner.consume("{") else { throw fail("expected '{' after match path '\(text)'") }
        guard depth < Self.maxDepth else { throw fail("match blocks are nested more than \(Self.maxDepth) deep", at: at) }
        depth += 1
        defer { depth -= 1 }
        let body = try parseBody(closing: true)
        return MatchBlock(
            pattern: pattern, functions: body.functions, allows: body.allows, children: body.matches,
            location: scanner.location(of: at))
    }

    mutating func parseAllow(at: Int) throws(Abandon) -> AllowStatement {
        var methods: [MethodName] = []
        repeat {
            scanner.skipTrivia()
            let nameAt = scanner.index
            guard let word = scanner.identifier() else { throw fail("expected a method (read, write, get, list, create, update, delete)") }
            guard let method = MethodName(rawValue: word) else {
                throw fail("unknown method '\(word)'; expected read, write, get, list, create, update or delete", at: nameAt)
            }
            methods.append(method)
        } while scanner.consume(",")
        var condition: PolicyExpression?
        if scanner.consume(":") {
            guard scanner.identifier() == "if" else { throw fail("expected 'if' after ':' in allow statement") }
            let extent = scanner.expressionExtent()
            if extent.isEmpty { throw fail("expected a condition after 'if'") }
            condition = PolicyExpression(scanner.expressionSource(extent))
        }
        _ = scanner.consume(";")
        return AllowStatement(methods: methods, condition: condition, location: scanner.location(of: at))
    }

    mutating func parseFunction(at: Int) throws(Abandon) -> FunctionDeclaration {
        guard let name = scanner.identifier() else { throw fail("expected a function name") }
        guard scanner.consume("(") else { throw fail("expected '(' after function name '\(name)'") }
        var parameters: [String] = []
        if !scanner.consume(")") {
            repeat {
                guard let parameter = scanner.identifier() else { throw fail("expected a parameter name in function '\(name)'") }
                if parameters.contains(parameter) { diagnostics.error("rules.duplicate-parameter", "duplicate parameter '\(parameter)' in function '\(name)'", at: scanner.location) }
                parameters.append(parameter)
            } while scanner.consume(",")
            guard scanner.consume(")") else { throw fail("expected ')' after the parameters of function '\(name)'") }
        }
        guard scanner.consume("{") else { throw fail("expected '{' to open the body of function '\(name)'") }
        var lets: [LetBinding] = []
        while true {
            scanner.skipTrivia()
            let statementAt = scanner.index
            guard let keyword = scanner.identifier() else { throw fail("expected 'let' or 'return' in function '\(name)'") }
            if keyword == "let" {
                guard let variable = scanner.identifier() else { throw fail("expected a name after 'let'") }
                guard scanner.consume("=") else { throw fail("expected '=' after 'let \(variable)'") }
                let extent = scanner.expressionExtent()
                if extent.isEmpty { throw fail("expected a value for 'let \(variable)'") }
                let value = PolicyExpression(scanner.expressionSource(extent))
                // `let` statements must be separated by semicolons (rules language reference).
                guard scanner.consume(";") else { throw fail("expected ';' after 'let \(variable)'") }
                lets.append(LetBinding(name: variable, value: value, location: scanner.location(of: statementAt)))
            } else if keyword == "return" {
                let extent = scanner.expressionExtent()
                if extent.isEmpty { throw fail("expected an expression after 'return'") }
                let body = PolicyExpression(scanner.expressionSource(extent))
                _ = scanner.consume(";")
                guard scanner.consume("}") else { throw fail("expected '}' after the return statement of function '\(name)'") }
                return FunctionDeclaration(name: name, parameters: parameters, lets: lets, body: body, location: scanner.location(of: at))
            } else {
                throw fail("unexpected '\(keyword)' in function '\(name)'; a function body holds 'let' statements and one 'return'", at: statementAt)
            }
        }
    }

    /// Version 1 allows `{name=**}` only as the last segment of a match path.
    mutating func validateRecursiveWildcards(_ policy: SecurityPolicy) {
        guard !policy.usesVersion2 else { return }
        func visit(_ block: MatchBlock) {
            if let index = block.pattern.segments.firstIndex(where: { if case .recursive = $0 { true } else { false } }),
               index != block.pattern.segments.count - 1 {
                diagnostics.error(
                    "rules.glob-position",
                    "recursive wildcards are permitted only as the last segment without rules_version = '2'",
                    at: block.location)
            }
            block.children.forEach(visit)
        }
        policy.matches.forEach(visit)
    }
}
