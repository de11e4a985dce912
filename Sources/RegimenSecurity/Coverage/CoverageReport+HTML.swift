import Foundation
import RegimenLanguage

extension CoverageReport {
    /// The policy source with every sub-expression of every allow condition and function marked:
    /// hovering one shows its evaluation count and the values it produced, never-evaluated ones
    /// are struck through in red, and under each statement a disclosure lists every
    /// sub-expression with the same figures (keyboard and screen-reader reachable).
    ///
    /// - Parameter title: how the page names the policy file (the command passes the path
    ///   relative to where the tests ran); the file's path as loaded when `nil`.
    package func html(title: String? = nil) -> String {
        let name = MarkupText.escaped(title ?? policy.policy.origin.file)
        let entries = subExpressions()
        let file = FileText(policy.policy.origin.text)
        let lineCounts = recorder.lineCounts()
        var annotations: [Int: [String]] = [:]
        for (id, allow) in policy.allows.enumerated() {
            annotations[allow.statement.location.line, default: []].append("allow \(allow.statement.methodList): \(Self.counts(recorder.allowCounts[id]))")
        }
        for (index, function) in policy.functions.enumerated() {
            annotations[function.declaration.location.line, default: []].append("\(function.declaration.signature): \(Self.counts(recorder.functionCounts[index]))")
        }
        let s = statementsCovered, f = functionsCovered
        let reached = entries.filter { $0.summary.evaluated > 0 }.count
        var out = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Coverage: \(name)</title>
        <style>
        \(CoverageReport.stylesheet)</style></head><body>
        <main>
        <h1>Coverage: \(name)</h1>
        <p>Statements \(s.covered)/\(s.total) (\(percent(s))) · functions \(f.covered)/\(f.total) (\(percent(f))) ·
        sub-expressions \(reached)/\(entries.count) (\(percent((reached, entries.count)))).</p>
        <p class="legend">Counts are evaluations of the expressions starting on each line. Every sub-expression
        is marked: <span class="x hit">evaluated</span>, <span class="x never">never evaluated</span> (struck through);
        hover one for its counts and values, or open the list under each statement.</p>
        <table>

        """
        let rows = file.lineStarts.count
        let detailsAfter = detailLines(entries: entries, file: file)
        let expressionLines = Set(annotations.keys).union(expressionStartLines())
        for index in 0..<rows {
            let number = index + 1
            let count = lineCounts[number]
            let tracked = expressionLines.contains(number)
            let rowClass = tracked ? ((count ?? 0) > 0 ? "hit" : "miss") : ""
            let countText = tracked ? String(count ?? 0) : ""
            let note = annotations[number].map { MarkupText.escaped($0.joined(separator: "; ")) } ?? ""
            let source = markedLine(number, file: file, entries: entries)
            out += "<tr class=\"\(rowClass)\"><td class=\"n\">\(number)</td><td class=\"c\">\(countText)</td><td class=\"s\">\(source)</td><td class=\"a\">\(note)</td></tr>\n"
            for owner in detailsAfter[number] ?? [] { out += detailsRow(owner, entries: entries) }
        }
        out += "</table>\n</main></body></html>\n"
        return out
    }

    /// The identifier of a sub-expression's mark, so the list under its statement links to it.
    private static func anchor(_ entry: SubExpressionCoverage, index: Int) -> String { "e\(index)" }

    /// What hovering a mark shows.
    private static func tooltip(_ entry: SubExpressionCoverage) -> String {
        let range = "\(entry.start.line):\(entry.start.column)–\(entry.end.line):\(entry.end.column)"
        let outcome = entry.summary.evaluated == 0 ? "never evaluated" : entry.summary.description
        var text = "\(ValueSummary.shortened(entry.text, limit: 80)) (\(range)): \(outcome)"
        if !entry.summary.errors.isEmpty { text += "; errors: " + entry.summary.errors.joined(separator: "; ") }
        return text
    }

    /// One line of the file with the parts of sub-expressions on it wrapped in nested marks; an
    /// expression over several lines is marked on each.
    private func markedLine(_ number: Int, file: FileText, entries: [SubExpressionCoverage]) -> String {
        let lineStart = file.lineStarts[number - 1]
        let lineEnd = number < file.lineStarts.count ? file.lineStarts[number] - 1 : file.scalars.count
        // Pieces on this line, clipped to it; entries are already ordered outer before inner.
        var pieces: [(start: Int, end: Int, index: Int)] = []
        // On the lines an expression continues onto, its mark starts after the indentation.
        var textStart = lineStart
        while textStart < lineEnd, file.scalars[textStart] == " " || file.scalars[textStart] == "\t" { textStart += 1 }
        for (index, entry) in entries.enumerated() where entry.startOffset < lineEnd && entry.endOffset > lineStart {
            let start = entry.startOffset < lineStart ? textStart : entry.startOffset
            if start < lineEnd { pieces.append((start, min(entry.endOffset, lineEnd), index)) }
        }
        pieces.sort { ($0.start, -$0.end, $0.index) < ($1.start, -$1.end, $1.index) }
        var out = ""
        var open: [Int] = []
        var next = 0
        var position = lineStart
        while true {
            while let end = open.last, end <= position {
                out += "</span>"
                open.removeLast()
            }
            if position >= lineEnd { break }
            while next < pieces.count, pieces[next].start <= position {
                let piece = pieces[next]
                next += 1
                // A piece never outlives the one it opens inside, so marks stay nested.
                let end = min(piece.end, open.last ?? lineEnd)
                guard end > position else { continue }
                let entry = entries[piece.index]
                let state = entry.summary.evaluated == 0 ? "never" : "hit"
                let id = entry.startOffset == piece.start ? " id=\"\(Self.anchor(entry, index: piece.index))\"" : ""
                out += "<span class=\"x \(state)\"\(id) title=\"\(MarkupText.escaped(Self.tooltip(entry)))\">"
                open.append(end)
            }
            out += MarkupText.escaped(String(Character(file.scalars[position])))
            position += 1
        }
        while !open.isEmpty {
            out += "</span>"
            open.removeLast()
        }
        return out
    }

    /// After which line each statement's list goes: where its condition or body ends.
    private func detailLines(entries: [SubExpressionCoverage], file: FileText) -> [Int: [SubExpressionCoverage.Owner]] {
        var lastLine: [SubExpressionCoverage.Owner: Int] = [:]
        for entry in entries { lastLine[entry.owner] = max(lastLine[entry.owner] ?? 0, entry.end.line) }
        var lines: [Int: [SubExpressionCoverage.Owner]] = [:]
        for (owner, line) in lastLine { lines[line, default: []].append(owner) }
        return lines.mapValues { $0.sorted() }
    }

    private func ownerTitle(_ owner: SubExpressionCoverage.Owner) -> String {
        switch owner {
        case .allow(let id):
            guard id < policy.allows.count else { return "allow" }
            let allow = policy.allows[id]
            return "allow \(allow.statement.methodList) (line \(allow.statement.location.line)): \(Self.counts(recorder.allowCounts[id]))"
        case .function(let index):
            guard index >= 0, index < policy.functions.count else { return "function" }
            let function = policy.functions[index].declaration
            return "function \(function.signature) (line \(function.location.line)): \(Self.counts(recorder.functionCounts[index]))"
        }
    }

    /// A disclosure listing a statement's sub-expressions with their figures.
    private func detailsRow(_ owner: SubExpressionCoverage.Owner, entries: [SubExpressionCoverage]) -> String {
        let own = entries.enumerated().filter { $0.element.owner == owner }
        let never = own.filter { $0.element.summary.evaluated == 0 }.count
        let neverText = never == 0 ? "every sub-expression evaluated" : "\(never) of \(own.count) sub-expressions never evaluated"
        var out = "<tr class=\"d\"><td class=\"n\"></td><td class=\"c\"></td><td class=\"s\" colspan=\"2\"><details><summary>"
        out += MarkupText.escaped("\(ownerTitle(owner)) — \(neverText)") + "</summary>\n<ol>\n"
        for (index, entry) in own {
            let range = "\(entry.start.line):\(entry.start.column)–\(entry.end.line):\(entry.end.column)"
            let state = entry.summary.evaluated == 0 ? "never" : "hit"
            var figures = entry.summary.evaluated == 0 ? "never evaluated" : entry.summary.description
            if !entry.summary.errors.isEmpty { figures += "; errors: " + entry.summary.errors.joined(separator: "; ") }
            out += "<li class=\"\(state)\"><a href=\"#\(Self.anchor(entry, index: index))\"><code>\(MarkupText.escaped(ValueSummary.shortened(entry.text, limit: 160)))</code></a>"
            out += " <span class=\"r\">\(range)</span> — \(MarkupText.escaped(figures))</li>\n"
        }
        return out + "</ol></details></td></tr>\n"
    }

    /// `path` as seen from `directory`: relative when it lies inside it (or a few levels up),
    /// unchanged when it is already relative.
    package static func relativePath(_ path: String, to directory: String) -> String {
        guard path.hasPrefix("/"), directory.hasPrefix("/") else { return path }
        let target = (path as NSString).standardizingPath.split(separator: "/").map(String.init)
        let base = (directory as NSString).standardizingPath.split(separator: "/").map(String.init)
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        // Sharing only the root (or little more), the absolute path says it better than many `..`.
        guard common > 0, base.count - common <= 3 else { return path }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
