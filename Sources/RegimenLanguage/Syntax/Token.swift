/// A lexical token of the rules language, with its span in the source text.
package struct Token: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case identifier(String)
        case int(Int64)
        case float(Double)
        case string(String)
        case bytes([UInt8])
        case symbol(Symbol)
        case endOfInput
        /// A malformed token; the message says what is wrong.
        case invalid(String)
    }

    package enum Symbol: String, Sendable, Equatable, CaseIterable {
        case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]"
        case leftBrace = "{", rightBrace = "}", comma = ",", dot = ".", colon = ":", semicolon = ";"
        case question = "?", bang = "!", minus = "-", plus = "+", star = "*", slash = "/", percent = "%"
        case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
        case equalEqual = "==", bangEqual = "!=", ampAmp = "&&", pipePipe = "||", equal = "="
        case dollarParen = "$("
    }

    package var kind: Kind
    package var span: SourceSpan

    func isSymbol(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }

    func isKeyword(_ word: String) -> Bool { kind == .identifier(word) }
}
