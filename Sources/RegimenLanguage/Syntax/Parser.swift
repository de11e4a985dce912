/// Recursive-descent parser for rules-language expressions with the precedence Google's emulator
/// applies (high → low): postfix, unary, `* / %`, `+ -`, `< <= > >=`, `== != is` (one level, left to
/// right), `in`, `&&`, `||`, `?:`. The reference's table puts `in` and `is` above `==`; the
/// emulator parses `x in l == true` as `x in (l == true)` and `1 == 1 is bool` as
/// `(1 == 1) is bool`, and the emulator is the oracle.
///
/// The parser never traps: malformed input yields diagnostics (offsets into the text). Both its own
/// recursion and the height of every tree it builds are bounded by ``maxDepth``, so no later walk
/// over a tree (compiler, bounds, evaluator) can exhaust the stack on hostile input. The security-rules parser
/// reuses it to read expressions embedded in `.rules` files via ``parseExpression()`` at an offset.
package struct Parser {
    package struct Failure: Error, Sendable, Equatable {
        package var message: String
        package var span: SourceSpan
    }

    private(set) var lexer: Lexer
    private var lookahead: Token
    private var depth = 0
    /// The most levels an expression may nest: brackets, and operators, members, calls and
    /// indexes applied to one another (`a || b || c` is three levels of `||`).
    package static let maxDepth = 200

    package init(_ text: String, startingAt offset: Int = 0) {
        var lexer = Lexer(text, startingAt: offset)
        lookahead = lexer.next()
        self.lexer = lexer
    }

    /// The token the parser will consume next.
    package var current: Token { lookahead }

    mutating func advance() -> Token {
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
            switch parser.current.kind {
            case .endOfInput: break
            case .invalid(let message): return .failure(Failure(message: message, span: parser.current.span))
            default: return .failure(Failure(message: "unexpected \(parser.current.describe()) after expression", span: parser.current.span))
            }
            return .success(expr)
        } catch {
            return .failure(error)
        }
    }

    mutating func expect(_ symbol: Token.Symbol, _ context: String) throws(Failure) -> Token {
        guard lookahead.isSymbol(symbol) else {
            throw Failure(message: "expected '\(symbol.rawValue)' \(context), found \(lookahead.describe())", span: lookahead.span)
        }
        return advance()
    }

    /// Parses one expression and returns its tree.
    mutating func parseExpression() throws(Failure) -> Expr {
        try parseSubexpression().expr
    }

    /// A parsed sub-expression with the height of its tree (a literal or a name is 1).
    private struct Parsed {
        var expr: Expr
        var height: Int
        var span: SourceSpan { expr.span }
    }

    /// `expr` one level above sub-expressions whose tallest is `childHeight` high.
    ///
    /// Every later walk over a tree (compiling, bounding, evaluating, releasing it) recurses once
    /// per level, so the height, and not only the nesting of brackets, is bounded here: a chain
    /// of 10,000 `||` terms is as deep as 10,000 nested parentheses.
    private func combined(_ expr: Expr, childHeight: Int, at span: SourceSpan) throws(Failure) -> Parsed {
        let height = childHeight + 1
        guard height <= Self.maxDepth else {
            throw Failure(
                message: "expression is nested too deeply (more than \(Self.maxDepth) levels of operators, members, calls or brackets); split it into functions or shorter conditions",
                span: span)
        }
        return Parsed(expr: expr, height: height)
    }

    private mutating func parseSubexpression() throws(Failure) -> Parsed {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw Failure(message: "expression is nested too deeply (more than \(Self.maxDepth) levels)", span: lookahead.span)
        }
        return try parseTernary()
    }

    private mutating func parseTernary() throws(Failure) -> Parsed {
        let condition = try parseOr()
        guard lookahead.isSymbol(.question) else { return condition }
        let question = advance()
        let whenTrue = try parseSubexpression()
        _ = try expect(.colon, "in conditional expression")
        let whenFalse = try parseSubexpression()
        return try combined(
            .ternary(condition.expr, whenTrue.expr, whenFalse.expr, condition.span.union(whenFalse.span)),
            childHeight: max(condition.height, whenTrue.height, whenFalse.height), at: question.span)
    }

    /// `left op right` for a left-associative binary operator.
    private func binary(_ op: BinaryOperator, _ left: Parsed, _ right: Parsed, at token: Token) throws(Failure) -> Parsed {
        try combined(.binary(op, left.expr, right.expr, left.span.union(right.span)), childHeight: max(left.height, right.height), at: token.span)
    }

    private mutating func parseOr() throws(Failure) -> Parsed {
        var left = try parseAnd()
        while lookahead.isSymbol(.pipePipe) {
            let token = advance()
            left = try binary(.or, left, try parseAnd(), at: token)
        }
        return left
    }

    private mutating func parseAnd() throws(Failure) -> Parsed {
        var left = try parseIn()
        while lookahead.isSymbol(.ampAmp) {
            let token = advance()
            left = try binary(.and, left, try parseIn(), at: token)
        }
        return left
    }

    private mutating func parseEquality() throws(Failure) -> Parsed {
        var left = try parseRelation()
        while true {
            if lookahead.isKeyword("is") {
                let keyword = advance()
                guard case .identifier(let typeName) = lookahead.kind else {
                    throw Failure(message: "expected a type name after 'is', found \(lookahead.describe())", span: lookahead.span)
                }
                let typeToken = advance()
                left = try combined(.isType(left.expr, typeName, left.span.union(typeToken.span)), childHeight: left.height, at: keyword.span)
                continue
            }
            let op: BinaryOperator
            if lookahead.isSymbol(.equalEqual) { op = .equal } else if lookahead.isSymbol(.bangEqual) { op = .notEqual } else { break }
            let token = advance()
            left = try binary(op, left, try parseRelation(), at: token)
        }
        return left
    }

    private mutating func parseIn() throws(Failure) -> Parsed {
        var left = try parseEquality()
        while lookahead.isKeyword("in") {
            let token = advance()
            left = try binary(.in, left, try parseEquality(), at: token)
        }
        return left
    }

    private mutating func parseRelation() throws(Failure) -> Parsed {
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
            let token = advance()
            left = try binary(op, left, try parseAdditive(), at: token)
        }
    }

    private mutating func parseAdditive() throws(Failure) -> Parsed {
        var left = try parseMultiplicative()
        while true {
            let op: BinaryOperator
            switch lookahead.kind {
            case .symbol(.plus): op = .add
            case .symbol(.minus): op = .subtract
            default: return left
            }
            let token = advance()
            left = try binary(op, left, try parseMultiplicative(), at: token)
        }
    }

    private mutating func parseMultiplicative() throws(Failure) -> Parsed {
        var left = try parseUnary()
        while true {
            let op: BinaryOperator
            switch lookahead.kind {
            case .symbol(.star): op = .multiply
            case .symbol(.slash): op = .divide
            case .symbol(.percent): op = .remainder
            default: return left
            }
            let token = advance()
            left = try binary(op, left, try parseUnary(), at: token)
        }
    }

    private mutating func parseUnary() throws(Failure) -> Parsed {
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
        if op == .negate, case .literal(let v, let s) = operand.expr {
            switch v {
            case .int(let i): return Parsed(expr: .literal(.int(-i), token.span.union(s)), height: operand.height)
            case .float(let f): return Parsed(expr: .literal(.float(-f), token.span.union(s)), height: operand.height)
            default: break
            }
        }
        return try combined(.unary(op, operand.expr, token.span.union(operand.span)), childHeight: operand.height, at: token.span)
    }

    private mutating func parsePostfix() throws(Failure) -> Parsed {
        var base = try parsePrimary()
        while true {
            switch lookahead.kind {
            case .symbol(.dot):
                let dot = advance()
                guard case .identifier(let name) = lookahead.kind else {
                    throw Failure(message: "expected a field or method name after '.', found \(lookahead.describe())", span: lookahead.span)
                }
                let nameToken = advance()
                base = try combined(.member(base.expr, name, base.span.union(nameToken.span)), childHeight: base.height, at: dot.span)
            case .symbol(.leftParen):
                let open = advance()
                let arguments = try parseArguments(closing: .rightParen, what: "argument list")
                let close = try expect(.rightParen, "to close the argument list")
                base = try combined(
                    .call(base.expr, arguments.map(\.expr), base.span.union(close.span)),
                    childHeight: arguments.reduce(base.height) { max($0, $1.height) }, at: open.span)
            case .symbol(.leftBracket):
                let open = advance()
                var from: Parsed?
                if !lookahead.isSymbol(.colon) { from = try parseSubexpression() }
                if lookahead.isSymbol(.colon) {
                    _ = advance()
                    var to: Parsed?
                    if !lookahead.isSymbol(.rightBracket) { to = try parseSubexpression() }
                    let close = try expect(.rightBracket, "to close the slice")
                    base = try combined(
                        .slice(base.expr, from?.expr, to?.expr, base.span.union(close.span)),
                        childHeight: max(base.height, from?.height ?? 0, to?.height ?? 0), at: open.span)
                } else {
                    let close = try expect(.rightBracket, "to close the index")
                    guard let index = from else {
                        throw Failure(message: "expected an index expression", span: close.span)
                    }
                    base = try combined(
                        .index(base.expr, index.expr, base.span.union(close.span)), childHeight: max(base.height, index.height), at: open.span)
                }
            default:
                return base
            }
        }
    }

    private mutating func parseArguments(closing: Token.Symbol, what: String) throws(Failure) -> [Parsed] {
        var items: [Parsed] = []
        while !lookahead.isSymbol(closing) {
            items.append(try parseSubexpression())
            guard lookahead.isSymbol(.comma) else { break }
            _ = advance()
        }
        return items
    }

    private mutating func parsePrimary() throws(Failure) -> Parsed {
        let token = lookahead
        switch token.kind {
        case .int(let i):
            _ = advance()
            return Parsed(expr: .literal(.int(i), token.span), height: 1)
        case .float(let f):
            _ = advance()
            return Parsed(expr: .literal(.float(f), token.span), height: 1)
        case .string(let s):
            _ = advance()
            return Parsed(expr: .literal(.string(s), token.span), height: 1)
        case .bytes(let b):
            _ = advance()
            return Parsed(expr: .literal(.bytes(b), token.span), height: 1)
        case .identifier(let name):
            _ = advance()
            switch name {
            case "true": return Parsed(expr: .literal(.bool(true), token.span), height: 1)
            case "false": return Parsed(expr: .literal(.bool(false), token.span), height: 1)
            case "null": return Parsed(expr: .literal(.null, token.span), height: 1)
            default: return Parsed(expr: .identifier(name, token.span), height: 1)
            }
        case .symbol(.leftParen):
            _ = advance()
            let inner = try parseSubexpression()
            _ = try expect(.rightParen, "to close the parenthesis")
            return inner
        case .symbol(.leftBracket):
            _ = advance()
            let items = try parseArguments(closing: .rightBracket, what: "list")
            let close = try expect(.rightBracket, "to close the list")
            return try combined(
                .list(items.map(\.expr), token.span.union(close.span)), childHeight: items.reduce(0) { max($0, $1.height) }, at: token.span)
        case .symbol(.leftBrace):
            _ = advance()
            var entries: [MapEntry] = []
            var tallest = 0
            while !lookahead.isSymbol(.rightBrace) {
                let key = try parseSubexpression()
                _ = try expect(.colon, "after a map key")
                let value = try parseSubexpression()
                entries.append(MapEntry(key: key.expr, value: value.expr))
                tallest = max(tallest, key.height, value.height)
                guard lookahead.isSymbol(.comma) else { break }
                _ = advance()
            }
            let close = try expect(.rightBrace, "to close the map")
            return try combined(.map(entries, token.span.union(close.span)), childHeight: tallest, at: token.span)
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
    private mutating func parsePathLiteral(start: Int) throws(Failure) -> Parsed {
        var parts: [PathPart] = []
        var tallest = 0
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
                let inner = try parseSubexpression()
                tallest = max(tallest, inner.height)
                guard lookahead.isSymbol(.rightParen) else {
                    throw Failure(message: "expected ')' to close '$(' in path, found \(lookahead.describe())", span: lookahead.span)
                }
                // The lexer has moved past ')'; continue raw scanning from there.
                lexer.reset(to: lookahead.span.end)
                parts.append(.interpolation(inner.expr))
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
        let span = SourceSpan(start: start, end: end)
        return try combined(.path(parts, span), childHeight: tallest, at: span)
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
