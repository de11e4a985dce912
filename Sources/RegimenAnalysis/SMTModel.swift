import RegimenLanguage

/// An S-expression of the solver's output.
indirect enum SExpression: Equatable {
    case atom(String)
    case string(String)
    case list([SExpression])

    /// Parses the first S-expression of `text`; `nil` when it is malformed. Iterative, so deep
    /// output cannot exhaust the stack.
    static func parse(_ text: String) -> SExpression? {
        var stack: [[SExpression]] = [[]]
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            switch c {
            case "(": stack.append([])
            case ")":
                guard stack.count > 1, let done = stack.popLast() else { return nil }
                stack[stack.count - 1].append(.list(done))
                if stack.count == 1 { return stack[0].first }
            case "\"":
                var s = String.UnicodeScalarView()
                while let d = scalars.first {
                    scalars = scalars.dropFirst()
                    if d == "\"" {
                        if scalars.first == "\"" { s.append("\""); scalars = scalars.dropFirst(); continue }
                        break
                    }
                    s.append(d)
                }
                stack[stack.count - 1].append(.string(decodeEscapes(String(s))))
            case " ", "\n", "\t", "\r": continue
            default:
                var s = String.UnicodeScalarView([c])
                while let d = scalars.first, !" \n\t\r()\"".unicodeScalars.contains(d) {
                    s.append(d)
                    scalars = scalars.dropFirst()
                }
                stack[stack.count - 1].append(.atom(String(s)))
                if stack.count == 1 { return stack[0].first }
            }
        }
        return nil
    }

    /// z3 and cvc5 print characters outside printable ASCII as `\u{…}` (or `\uXXXX`).
    static func decodeEscapes(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            if c == "\\", scalars.first == "u" {
                var rest = scalars.dropFirst()
                var hex = ""
                if rest.first == "{" {
                    rest = rest.dropFirst()
                    while let d = rest.first, d != "}" { hex.unicodeScalars.append(d); rest = rest.dropFirst() }
                    rest = rest.dropFirst()
                } else {
                    for _ in 0..<4 { if let d = rest.first { hex.unicodeScalars.append(d); rest = rest.dropFirst() } }
                }
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    out.append(scalar)
                    scalars = rest
                    continue
                }
            }
            out.append(c)
        }
        return String(out)
    }

    /// An integer literal, `(- n)` included.
    var integer: Int64? {
        switch self {
        case .atom(let text): return Int64(text)
        case .list(let items) where items.count == 2 && items[0] == .atom("-"): return items[1].integer.map { -$0 }
        default: return nil
        }
    }

    /// A real literal: `1.5`, `(- 1.5)`, `(/ 3.0 2.0)`.
    var real: Double? {
        switch self {
        case .atom(let text): return Double(text)
        case .list(let items) where items.count == 2 && items[0] == .atom("-"): return items[1].real.map { -$0 }
        case .list(let items) where items.count == 3 && items[0] == .atom("/"):
            guard let a = items[1].real, let b = items[2].real, b != 0 else { return nil }
            return a / b
        default: return nil
        }
    }
}

/// One value of the model, as the rules language sees it.
enum ModelValue: Equatable {
    case absent
    case error
    case value(Value)
    /// A map whose fields are the model's values of the field variables below it.
    case map
    /// A value a test file cannot spell (an opaque list, a NaN, …).
    case unprintable

    init(_ s: SExpression) {
        switch s {
        case .atom("vnull"): self = .value(.null)
        case .atom("vnone"): self = .absent
        case .atom("verr"): self = .error
        case .atom("true"): self = .value(.bool(true))
        case .atom("false"): self = .value(.bool(false))
        case .string(let text): self = .value(.string(text))
        case .list(let items) where items.count == 2:
            switch items[0] {
            case .atom("vbool"): self = ModelValue(items[1])
            case .atom("vint"): self = items[1].integer.map { .value(.int($0)) } ?? .unprintable
            case .atom("vflt"): self = items[1].real.map { .value(.float($0)) } ?? .unprintable
            case .atom("vstr"): self = ModelValue(items[1])
            case .atom("vts"):
                guard let nanos = items[1].integer else { self = .unprintable; return }
                let seconds = nanos >= 0 ? nanos / 1_000_000_000 : (nanos - 999_999_999) / 1_000_000_000
                self = .value(.timestamp(Timestamp(seconds: seconds, nanos: Int32(nanos - seconds * 1_000_000_000))))
            case .atom("vmap"): self = .map
            // Lists are opaque to the encoding: written as an empty list, which the replay judges.
            case .atom("vlist"): self = .value(.list([]))
            case .atom("vspecial"):
                switch items[1].integer {
                case 0: self = .value(.float(.nan))
                case 1: self = .value(.float(.infinity))
                case 2: self = .value(.float(-.infinity))
                default: self = .unprintable
                }
            default: self = .unprintable
            }
        default: self = .unprintable
        }
    }
}
