import Foundation
import RegimenLanguage

/// Coverage of one policy written as text, HTML (the source with every sub-expression marked) and LCOV.
package struct CoverageReport {
    let recorder: CoverageRecorder

    package init(_ recorder: CoverageRecorder) { self.recorder = recorder }

    var policy: CompiledPolicy { recorder.policy }

    /// Allow statements evaluated at least once, out of all.
    package var statementsCovered: (covered: Int, total: Int) {
        (recorder.allowCounts.filter { $0.evaluated > 0 }.count, recorder.allowCounts.count)
    }

    package var functionsCovered: (covered: Int, total: Int) {
        (recorder.functionCounts.filter { $0.evaluated > 0 }.count, recorder.functionCounts.count)
    }

    static func counts(_ c: CoverageRecorder.Counts) -> String {
        "evaluated \(c.evaluated): true \(c.isTrue), false \(c.isFalse), error \(c.errored)"
    }

    package func text() -> String {
        var out = "coverage of \(policy.policy.origin.file)\n"
        let s = statementsCovered, f = functionsCovered
        out += "  statements: \(s.covered)/\(s.total) (\(percent(s)))\n"
        for (id, allow) in policy.allows.enumerated() {
            out += "    \(allow.statement.location.line): allow \(allow.statement.methodList) — \(Self.counts(recorder.allowCounts[id]))\n"
        }
        out += "  functions: \(f.covered)/\(f.total) (\(percent(f)))\n"
        for (index, function) in policy.functions.enumerated() {
            out += "    \(function.declaration.location.line): \(function.declaration.signature) — \(Self.counts(recorder.functionCounts[index]))\n"
        }
        let neverAllows = policy.allows.enumerated().filter { recorder.allowCounts[$0.offset].evaluated == 0 }
        let neverFunctions = policy.functions.enumerated().filter { recorder.functionCounts[$0.offset].evaluated == 0 }
        if neverAllows.isEmpty && neverFunctions.isEmpty {
            out += "  every statement and function was evaluated\n"
        } else {
            out += "  never evaluated:\n"
            for (_, allow) in neverAllows { out += "    \(allow.statement.location): allow \(allow.statement.methodList)\n" }
            for (_, function) in neverFunctions { out += "    \(function.declaration.location): function \(function.declaration.signature)\n" }
        }
        return out
    }

    func percent(_ pair: (covered: Int, total: Int)) -> String {
        pair.total == 0 ? "100%" : String(format: "%.0f%%", Double(pair.covered) * 100 / Double(pair.total))
    }

    /// Lines where an allow condition or a function part starts.
    func expressionStartLines() -> Set<Int> {
        var lines = Set<Int>()
        for allow in policy.allows { if let l = allow.statement.condition?.location?.line { lines.insert(l) } }
        for function in policy.functions {
            lines.insert(function.declaration.body.location?.line ?? function.declaration.location.line)
            for binding in function.declaration.lets { lines.insert(binding.location.line) }
        }
        return lines
    }

    /// LCOV tracefile: functions (FN/FNDA), allow statements as branches of their line
    /// (BRDA: true/false/error), and line counts (DA).
    package func lcov(testName: String = "regimen") -> String {
        let file = policy.policy.origin.file
        var out = "TN:\(testName)\nSF:\(file)\n"
        for function in policy.functions {
            out += "FN:\(function.declaration.location.line),\(function.declaration.name)@\(function.declaration.location.line)\n"
        }
        for (index, function) in policy.functions.enumerated() {
            out += "FNDA:\(recorder.functionCounts[index].evaluated),\(function.declaration.name)@\(function.declaration.location.line)\n"
        }
        let f = functionsCovered
        out += "FNF:\(f.total)\nFNH:\(f.covered)\n"
        var branches = 0, branchesHit = 0
        for (id, allow) in policy.allows.enumerated() {
            let c = recorder.allowCounts[id]
            let outcomes = [c.isTrue, c.isFalse, c.errored]
            for (branch, taken) in outcomes.enumerated() {
                out += "BRDA:\(allow.statement.location.line),\(id),\(branch),\(c.evaluated == 0 ? "-" : String(taken))\n"
                branches += 1
                if taken > 0 { branchesHit += 1 }
            }
        }
        out += "BRF:\(branches)\nBRH:\(branchesHit)\n"
        let counts = recorder.lineCounts()
        let tracked = Set(counts.keys).union(expressionStartLines()).union(policy.allows.map(\.statement.location.line)).sorted()
        for line in tracked { out += "DA:\(line),\(counts[line] ?? 0)\n" }
        out += "LF:\(tracked.count)\nLH:\(tracked.filter { (counts[$0] ?? 0) > 0 }.count)\nend_of_record\n"
        return out
    }
}
