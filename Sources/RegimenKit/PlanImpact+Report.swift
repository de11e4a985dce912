import OrderedCollections
import RegimenLanguage

extension PlanImpact: SeedContract {
    /// The impact as JSON: `clients`, `changed`, `unchanged`, `groups` (summary and clients) and
    /// `per_client` (each client's changes).
    public var contractValue: Value {
        let groupValues = groups.map { group -> Value in
            .map(["summary": .string(group.summary), "clients": .list(group.clients.map(Value.string))])
        }
        let clientValues = changed.map { impact -> Value in
            .map(["client": .string(impact.client), "changes": .list(impact.changes.map(\.contractValue))])
        }
        return .map([
            "clients": .int(Int64(clientCount)), "changed": .int(Int64(changed.count)),
            "unchanged": .int(Int64(unchangedCount)), "groups": .list(groupValues), "per_client": .list(clientValues),
        ])
    }

    /// The impact as a coach reads it: the shared changes, most clients first, then per client.
    public func text(title: String) -> String {
        var lines = [title, ""]
        if changed.isEmpty {
            lines.append("No change for any of the \(clientCount) clients.")
            return lines.joined(separator: "\n") + "\n"
        }
        for group in groups { lines.append("  \(group.summary)") }
        lines.append("  no change for \(unchangedCount) of \(clientCount) clients")
        lines.append("")
        lines.append("Per client:")
        for impact in changed {
            lines.append("  \(impact.client)")
            for change in impact.changes { lines.append("    \(change.summary)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A self-contained HTML page (no script, no external resource): the groups as a table, each
    /// client's changes under a disclosure.
    public func html(title: String) -> String {
        func escape(_ text: String) -> String { MarkupText.escaped(text) }
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
            table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
            td.n{text-align:right;white-space:nowrap}details{margin:.2rem 0}summary{cursor:pointer}
            </style></head><body>
            <h1>\(escape(title))</h1>
            <p>\(changed.count) of \(clientCount) clients change; no change for \(unchangedCount).</p>

            """
        if !groups.isEmpty {
            page += "<h2>Changes shared across clients</h2>\n<table><thead><tr><th scope=\"col\">Clients</th><th scope=\"col\">Change</th></tr></thead><tbody>\n"
            for group in groups {
                let summary = group.summary.split(separator: ":", maxSplits: 1)
                page += "<tr><td class=\"n\">\(escape(String(summary.first ?? "")))</td><td>\(escape(summary.count > 1 ? String(summary[1]).trimmingPrefix(" ").description : group.summary))</td></tr>\n"
            }
            page += "</tbody></table>\n<h2>Per client</h2>\n"
            for impact in changed {
                page += "<details><summary>\(escape(impact.client)) (\(impact.changes.count) change\(impact.changes.count == 1 ? "" : "s"))</summary><ul>\n"
                for change in impact.changes { page += "<li>\(escape(change.summary))</li>\n" }
                page += "</ul></details>\n"
            }
        }
        page += "</body></html>\n"
        return page
    }
}

extension PlanImpact.Change {
    /// The change as JSON: `measure`, `before` and `after` (`null` for an added or dropped set
    /// member), `summary` as the text report words it, and `percent` for a number.
    package var contractValue: Value {
        var fields: OrderedDictionary<String, Value> = [
            "measure": .string(measure), "before": before.isEmpty ? .null : .string(before),
            "after": after.isEmpty ? .null : .string(after), "summary": .string(summary),
        ]
        if let percent, percent.isFinite { fields["percent"] = .float((percent * 10).rounded() / 10) }
        return .map(fields)
    }
}
