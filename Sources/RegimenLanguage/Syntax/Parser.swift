/// Recursive-descent parser for rules-language expressions with the precedence Google's emulator
/// applies (high → low): postfix, unary, `* / %`, `+ -`, `< <= > >=`, `== != is` (one level, left to
/// right), `in`, `&&`, `||`, `?:`. The reference's table puts `in` and `is` above `==`; the
/// emulator parses `x in l == true` as `x in (l == true)` and `1 == 1 is bool` as
/// `(1 == 1) is bool`, and the emulator is the oracle.
///
/// The parser never traps: malformed input yields diagnostics (offsets into the text) and the
/// nesting depth is bounded so hostile input cannot exhaust the stack. The security-rules parser
/// reuses it to read expressions embedded in `.rules` files via ``parseExpression()`` at an offset.
package struct Parser {
    package struct Failure: Error, Sendable, Equatable {
        package var message: String
        package var span: SourceSpan
    }

    package private(set) var lexer: Lexer
    private var lookahead: Token
    private var depth = 0
    package static let maxDepth = 200

    package init(_ text: String, startingAt offset: Int = 0) {
        var lexer = Lexer(text, startingAt: offset)
        lookahead = lexer.next()
        self.lexer = lexer
    }

    /// The token the parser will consume next.
    package var current: Token { lookahead }

    package mutating func advance() -> Token {
        let token = lookahead
        lookahead = lexer.next()
        return token
    }

    /// Repositions the parser at `offset` (after raw scanning done by a caller).
    package mutating func reset(to offset: Int) {
        lexer.reset(to: offset)
        lookahead = lexer.next()
    }

    /// Parses a whole expression text; anything after the expression is an error.
    package static func parse(_ text: String) -> Result<Expr, Failure> {
        var parser = Parser(text)
        do {
            let expr = try parser.parseExpression()
            guard case .endOfInput = parser.current.kind else {
                return .failure(Failure(message: "unexpected \(parser.current.describe()) after expression", span: parser.current.span))
            }
            return .success(expr)
        } catch {
            return .failure(error)
        }
    }

    package mutating func expect(_ symbol: Token.Symbol, _ context: String) throws(Failure) -> Token {
        guard lookahead.isSymbol(symbol) else {
            throw Failure(message: "expected '\(symbol.rawValue)' \(context), found \(lookahead.describe())", span: lookahead.span)
        }
        return advance()
    }

    package mutating func parseExpression() throws(Failure) -> Expr {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw Failure(message: "expression is nested too deeply (more than \(Self.maxDepth) levels)", span: lookahead.span)
        }
        return try parseTernary()
    }

    private mutating func parseTernary() throws(Failure) -> Expr {
        let condition = try parseOr()
        guard lookahead.isSymbol(.question) else { return condition }
        _ = advance()
        let whenTrue = try parseExpression()
        _ = try expect(.colon, "in conditional expression")
        let whenFalse = try parseExpression()
        return .ternary(condition, whenTrue, whenFalse, condition.span.union(whenFalse.span))
    }

    private mutating func parseOr() throws(Failure) -> Expr {
        var left = try parseAnd()
        while lookahead.isSymbol(.pipePipe) {
            _ = advance()
            let right = try parseAnd()
            left = .binary(.or, left, right, left.span.union(right.span))
        }
        return left
    }

    private mutating func parseAnd() throws(Failure) -> Expr {
        var left = try parseIn()
        while lookahead.isSymbol(.ampAmp) {
            _ = advance()
            let right = try parseIn()
            left = .binary(.and, left, right, left.span.union(right.span))
        }
        return left
    }

    private mutating func parseEquality() throws(Failure) -> Expr {
        var left = try parseRelation()
        while true {
            if lookahead.isKeyword("is") {
                _ = advance()
                guard case .identifier(let typeName) = lookahead.kind else {
                    throw Failure(message: "expected a type name after 'is', found \(lookahead.describe())", span: lookahead.span)
                }
                let typeToken = advance()
                left = .isType(left, typeName, left.span.union(typeToken.span))
                continue
            }
            let op: BinaryOperator
            if lookahead.isSymbol(.equalEqual) { op = .equal } else if lookahead.isSymbol(.bangEqual) { op = .notEqual } else { break }
            _ = advance()
            let right = try parseRelation()
            left = .binary(op, left, right, left.span.union(right.span))
        }
        return left
    }

    private mutating func parseIn() throws(Failure) -> Expr {
        var left = try parseEquality()
        while lookahead.isKeyword("in") {
            _ = advance()
            let right = try parseEquality()
            left = .binary(.in, left, right, left.span.union(right.span))
        }
        return left
    }

    private mutating func parseRelation() throws(Failure) -> Expr {
        var left = try parseAdditive()
        while true {
            let op: BinaryOperator
            switch lookahead.kind {
            case .symbol(.less): op = .less
            case .symbol(.lessEqual): op = .lessEqual
            case .symbol(.greater): op = .greater
            case .symbol(.greaterEqual): op = .greaterEqual
            default: return left
            }
            _ = advance()
            let right = try parseAdditive()
            left = .binary(op, left, right, left.span.union(right.span))
        }
    }

    private mutating func parseAdditive() throws(Failure) -> Expr {
        var left = try parseMultiplicative()
        while true {
            let op: BinaryOperator
            switch lookahead.kind {
            case .symbol(.plus): op = .add
            case .symbol(.minus): op = .subtract
            default: return left
            }
            _ = advance()
            let right = try parseMultiplicative()
            left = .binary(op, left, right, left.span.union(right.span))
        }
    }

    private mutating func parseMultiplicative() throws(Failure) -> Expr {
        var left = try parseUnary()
        while true {
            let op: BinaryOperator
            switch lookahead.kind {
            case .symbol(.star): op = .multiply
            case .symbol(.slash): op = .divide
            case .symbol(.percent): op = .remainder
            default: return left
            }
            _ = advance()
            let right = try parseUnary()
            left = .binary(op, left, right, left.span.union(right.span))
        }
    }

    private mutating func parseUnary() throws(Failure) -> Expr {
        let op: UnaryOperator
        switch lookahead.kind {
        case .symbol(.bang): op = .not
        case .symbol(.minus): op = .negate
        default: return try parsePostfix()
        }
        let token = advance()
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw Failure(message: "expression is nested too deeply (more than \(Self.maxDepth) levels)", span: token.span)
        }
        let operand = try parseUnary()
        // Fold `-literal` so the most negative int literal is representable.
        if op == .negate, case .literal(let v, let s) = operand {
            switch v {
            case .int(let i): return .literal(.int(-i), token.span.union(s))
            case .float(let f): return .literal(.float(-f), token.span.union(s))
            default: break
            }
        }
        return .unary(op, operand, token.span.union(operand.span))
    }

    private mutating func parsePostfix() throws(Failure) -> Expr {
        var expr = try parsePrimary()
        while true {
            switch lookahead.kind {
            case .symbol(.dot):
                _ = advance()
                guard case .identifier(let name) = lookahead.kind else {
                    throw Failure(message: "expected a field or method name after '.', found \(lookahead.describe())", span: lookahead.span)
                }
                let nameToken = advance()
                expr = .member(expr, name, expr.span.union(nameToken.span))
            case .symbol(.leftParen):
                _ = advance()
                let arguments = try parseArguments(closing: .rightParen, what: "argument list")
                let close = try expect(.rightParen, "to close the argument list")
                expr = .call(expr, arguments, expr.span.union(close.span))
            case .symbol(.leftBracket):
                _ = advance()
                var from: Expr?
                if !lookahead.isSymbol(.colon) { from = try parseExpression() }
                if lookahead.isSymbol(.colon) {
                    _ = advance()
                    var to: Expr?
                    if !lookahead.isSymbol(.rightBracket) { to = try parseExpression() }
                    let close = try expect(.rightBracket, "to close the slice")
                    expr = .slice(expr, from, to, expr.span.union(close.span))
                } else {
                    let close = try expect(.rightBracket, "to close the index")
                    guard let index = from else {
                        throw Failure(message: "expected an index expression", span: close.span)
                    }
                    expr = .index(expr, index, expr.span.union(close.span))
                }
            default:
                return expr
            }
        }
    }

    private mutating func parseArguments(closing: Token.Symbol, what: String) throws(Failure) -> [Expr] {
        var items: [Expr] = []
        while !lookahead.isSymbol(closing) {
            items.append(try parseExpression())
            guard lookahead.isSymbol(.comma) else { break }
            _ = advance()
        }
        return items
    }

    private mutating func parsePrimary() throws(Failure) -> Expr {
        let token = lookahead
        switch token.kind {
        case .int(let i):
            _ = advance()
            return .literal(.int(i), token.span)
        case .float(let f):
            _ = advance()
            return .literal(.float(f), token.span)
        case .string(let s):
            _ = advance()
            return .literal(.string(s), token.span)
        case .bytes(let b):
            _ = advance()
            return .literal(.bytes(b), token.span)
        case .identifier(let name):
            _ = advance()
            switch name {
            case "true": return .literal(.bool(true), token.span)
            case "false": return .literal(.bool(false), token.span)
            case "null": return .literal(.null, token.span)
            default: return .identifier(name, token.span)
            }
        case .symbol(.leftParen):
            _ = advance()
            let inner = try parseExpression()
            _ = try expect(.rightParen, "to close the parenthesis")
            return inner
        case .symbol(.leftBracket):
            _ = advance()
            let items = try parseArguments(closing: .rightBracket, what: "list")
            let close = try expect(.rightBracket, "to close the list")
            return .list(items, token.span.union(close.span))
        case .symbol(.leftBrace):
            _ = advance()
            var entries: [MapEntry] = []
            while !lookahead.isSymbol(.rightBrace) {
                let key = try parseExpression()
                _ = try expect(.colon, "after a map key")
                let value = try parseExpression()
                entries.append(MapEntry(key: key, value: value))
                guard lookahead.isSymbol(.comma) else { break }
                _ = advance()
            }
            let close = try expect(.rightBrace, "to close the map")
            return .map(entries, token.span.union(close.span))
        case .symbol(.slash):
            return try parsePathLiteral(start: token.span.start)
        case .endOfInput:
            throw Failure(message: "expected an expression, found end of input", span: token.span)
        case .invalid(let message):
            throw Failure(message: message, span: token.span)
        case .symbol:
            throw Failure(message: "expected an expression, found \(token.describe())", span: token.span)
        }
    }

    /// `/seg/$(expr)/seg…`: the lookahead is the first `/`, already lexed; rescan raw from after it.
    private mutating func parsePathLiteral(start: Int) throws(Failure) -> Expr {
        var parts: [PathPart] = []
        lexer.reset(to: start)
        var end = start
        while lexer.peekCharacter() == "/" {
            lexer.advance()
            if lexer.peekCharacter() == "$" {
                lexer.advance()
                guard lexer.peekCharacter() == "(" else {
                    throw Failure(message: "expected '(' after '$' in path", span: SourceSpan(start: lexer.position, end: lexer.position + 1))
                }
                lexer.advance()
                lookahead = lexer.next()
                let inner = try parseExpression()
                guard lookahead.isSymbol(.rightParen) else {
                    throw Failure(message: "expected ')' to close '$(' in path, found \(lookahead.describe())", span: lookahead.span)
                }
                // The lexer has moved past ')'; continue raw scanning from there.
                lexer.reset(to: lookahead.span.end)
                parts.append(.interpolation(inner))
            } else {
                let segment = lexer.scanPathSegment()
                guard !segment.text.isEmpty else {
                    throw Failure(message: "expected a path segment after '/'", span: SourceSpan(start: lexer.position, end: lexer.position + 1))
                }
                parts.append(.segment(segment.text))
            }
            end = lexer.position
        }
        lookahead = lexer.next()
        return .path(parts, SourceSpan(start: start, end: end))
    }
}

extension Token {
    /// How the token reads in a message: `'+'`, `identifier 'foo'`, `end of input`.
    package func describe() -> String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .int(let i): "number \(i)"
        case .float(let f): "number \(f)"
        case .string: "a string"
        case .bytes: "a bytes literal"
        case .symbol(let s): "'\(s.rawValue)'"
        case .endOfInput: "end of input"
        case .invalid(let message): message
        }
    }
}
