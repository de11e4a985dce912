import RegimenLanguage

/// Finds the sub-expression that made a condition false or fail, from the values a
/// ``RecordingTracer`` saw: it follows the operand that decided each `&&`, `||` and `!`, steps
/// into user functions, and stops at the comparison, type test or lookup that gave the answer.
struct CulpritFinder {
    let policy: CompiledPolicy
    let records: [(span: SourceSpan, outcome: Result<Value, EvaluationError>)]
    let conditionSource: SourceText

    /// Where an expression's text lives and how its spans are shifted in the tracer's records.
    private struct Frame {
        var text: SourceText
        var offset: Int
        /// Only records before this index belong to the evaluation being explained.
        var bound: Int
        var via: [String]
    }

    mutating func culprit(of expression: Expr, outcome: Result<Value, EvaluationError>) -> Culprit {
        let frame = Frame(text: conditionSource, offset: 0, bound: records.count, via: [])
        return find(expression, frame, fallback: outcome, depth: 0)
    }

    private func lookup(_ expr: Expr, _ frame: Frame) -> (outcome: Result<Value, EvaluationError>, index: Int)? {
        let start = expr.span.start + frame.offset, end = expr.span.end + frame.offset
        var i = min(frame.bound, records.count) - 1
        while i >= 0 {
            if records[i].span.start == start, records[i].span.end == end { return (records[i].outcome, i) }
            i -= 1
        }
        return nil
    }

    private func isFalseOrError(_ outcome: Result<Value, EvaluationError>?) -> Bool {
        switch outcome {
        case .success(.bool(true)), nil: false
        default: true
        }
    }

    private func isError(_ outcome: Result<Value, EvaluationError>?) -> Bool {
        if case .failure = outcome { return true }
        return false
    }

    private func isFalse(_ outcome: Result<Value, EvaluationError>?) -> Bool {
        if case .success(.bool(false)) = outcome { return true }
        return false
    }

    private func find(_ expr: Expr, _ frame: Frame, fallback: Result<Value, EvaluationError>, depth: Int) -> Culprit {
        let found = lookup(expr, frame)
        let outcome = found?.outcome ?? fallback
        guard depth < 64 else { return leaf(expr, frame, outcome) }
        switch expr {
        case .binary(.and, let l, let r, _):
            let lo = lookup(l, frame)?.outcome, ro = lookup(r, frame)?.outcome
            if isFalse(lo) { return find(l, frame, fallback: lo ?? outcome, depth: depth + 1) }
            if isFalse(ro) { return find(r, frame, fallback: ro ?? outcome, depth: depth + 1) }
            if isError(lo) { return find(l, frame, fallback: lo ?? outcome, depth: depth + 1) }
            if isFalseOrError(ro) { return find(r, frame, fallback: ro ?? outcome, depth: depth + 1) }
            return leaf(expr, frame, outcome)
        case .binary(.or, let l, let r, _):
            let lo = lookup(l, frame)?.outcome, ro = lookup(r, frame)?.outcome
            if isError(lo) && !isError(ro) { return find(l, frame, fallback: lo ?? outcome, depth: depth + 1) }
            if isError(ro) && !isError(lo) { return find(r, frame, fallback: ro ?? outcome, depth: depth + 1) }
            return leaf(expr, frame, outcome, operands: [l, r])
        case .unary(.not, let operand, _) where isError(outcome) && isError(lookup(operand, frame)?.outcome):
            return find(operand, frame, fallback: outcome, depth: depth + 1)
        case .call(.identifier(let name, _), _, _):
            if let index = found?.index, index > 0, let function = functionResult(before: index, named: name) {
                var inner = frame
                inner.text = function.text
                inner.offset = function.offset
                inner.bound = index
                inner.via.append(text(of: expr, frame))
                return find(function.expr, inner, fallback: outcome, depth: depth + 1)
            }
            return leaf(expr, frame, outcome)
        default:
            if isError(outcome) {
                for child in children(expr) where isError(lookup(child, frame)?.outcome) {
                    return find(child, frame, fallback: outcome, depth: depth + 1)
                }
            }
            switch expr {
            case .binary(_, let l, let r, _): return leaf(expr, frame, outcome, operands: [l, r])
            case .isType(let e, _, _), .unary(_, let e, _): return leaf(expr, frame, outcome, operands: [e])
            default: return leaf(expr, frame, outcome)
            }
        }
    }

    /// The user function whose result was recorded just before a call's own record.
    private func functionResult(before index: Int, named name: String) -> (expr: Expr, text: SourceText, offset: Int)? {
        let span = records[index - 1].span
        for info in policy.functions where info.declaration.name == name {
            guard let resultSpan = info.resultSpan, resultSpan == span, let parsed = info.parsedResult else { continue }
            return (parsed.expr, parsed.text, parsed.offset)
        }
        return nil
    }

    /// The sub-expressions that have records: a call's arguments (and a method's receiver), not
    /// the function name it calls.
    private func children(_ expr: Expr) -> [Expr] {
        switch expr {
        case .call(.member(let receiver, _, _), let args, _): [receiver] + args
        case .call(_, let args, _): args
        default: expr.children
        }
    }

    private func text(of expr: Expr, _ frame: Frame) -> String {
        let scalars = Array(frame.text.text.unicodeScalars)
        let start = max(0, min(expr.span.start, scalars.count)), end = max(start, min(expr.span.end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    private func leaf(_ expr: Expr, _ frame: Frame, _ outcome: Result<Value, EvaluationError>, operands: [Expr] = []) -> Culprit {
        Culprit(
            text: text(of: expr, frame), location: frame.text.location(ofScalarOffset: expr.span.start),
            endLocation: frame.text.location(ofScalarOffset: expr.span.end), outcome: outcome,
            operands: operands.compactMap { operand in
                guard let o = lookup(operand, frame)?.outcome else { return nil }
                return (text(of: operand, frame), o)
            },
            via: frame.via)
    }
}

import Foundation
