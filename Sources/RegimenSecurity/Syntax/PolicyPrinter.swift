import Foundation
import RegimenLanguage

/// Writes a ``SecurityPolicy`` in either syntax. `regimen rules convert` uses it; a policy printed
/// and read back makes the same decisions (the round-trip tests check that).
package enum PolicyPrinter {
    /// The native `.rules` text.
    package static func native(_ policy: SecurityPolicy) -> String {
        var out = ""
        if let version = policy.rulesVersion { out += "rules_version = '\(version)';\n" }
        out += "service \(policy.service.rawValue) {\n"
        for function in policy.functions { printFunction(function, indent: 1, into: &out) }
        for match in policy.matches { printMatch(match, indent: 1, into: &out) }
        out += "}\n"
        return out
    }

    private static func pad(_ indent: Int) -> String { String(repeating: "  ", count: indent) }

    private static func printMatch(_ block: MatchBlock, indent: Int, into out: inout String) {
        out += "\(pad(indent))match \(block.pattern) {\n"
        for function in block.functions { printFunction(function, indent: indent + 1, into: &out) }
        for allow in block.allows {
            out += "\(pad(indent + 1))allow \(allow.methodList)"
            if let condition = allow.condition {
                out += ": if " + reindent(condition.text, indent: indent + 3)
            }
            out += ";\n"
        }
        for child in block.children { printMatch(child, indent: indent + 1, into: &out) }
        out += "\(pad(indent))}\n"
    }

    private static func printFunction(_ function: FunctionDeclaration, indent: Int, into out: inout String) {
        out += "\(pad(indent))function \(function.signature) {\n"
        for binding in function.lets {
            out += "\(pad(indent + 1))let \(binding.name) = \(reindent(binding.value.text, indent: indent + 2));\n"
        }
        out += "\(pad(indent + 1))return \(reindent(function.body.text, indent: indent + 2));\n"
        out += "\(pad(indent))}\n"
    }

    /// The YAML form (`kind: security_rules`).
    package static func yaml(_ policy: SecurityPolicy) -> String {
        var out = "kind: security_rules\nversion: 1\n"
        if let version = policy.rulesVersion { out += "rules_version: \"\(version)\"\n" }
        out += "service: \(policy.service.rawValue)\n"
        if !policy.functions.isEmpty { yamlFunctions(policy.functions, indent: 0, into: &out) }
        if !policy.matches.isEmpty {
            out += "match:\n"
            for match in policy.matches { yamlMatch(match, indent: 1, into: &out) }
        }
        return out
    }

    private static func yamlMatch(_ block: MatchBlock, indent: Int, into out: inout String) {
        let p = pad(indent)
        out += "\(p)- path: \(block.pattern)\n"
        if !block.functions.isEmpty { yamlFunctions(block.functions, indent: indent + 1, into: &out) }
        if !block.allows.isEmpty {
            out += "\(p)  allow:\n"
            for allow in block.allows {
                out += "\(p)    - \(allow.methodList):"
                if let condition = allow.condition {
                    out += yamlScalar(condition.text, indent: indent + 4)
                } else {
                    out += "\n"
                }
            }
        }
        if !block.children.isEmpty {
            out += "\(p)  match:\n"
            for child in block.children { yamlMatch(child, indent: indent + 2, into: &out) }
        }
    }

    private static func yamlFunctions(_ functions: [FunctionDeclaration], indent: Int, into out: inout String) {
        let p = pad(indent)
        out += "\(p)functions:\n"
        for function in functions {
            out += "\(p)  \(function.signature):"
            if function.lets.isEmpty {
                out += yamlScalar(function.body.text, indent: indent + 2)
            } else {
                out += "\n\(p)    let:\n"
                for binding in function.lets {
                    out += "\(p)      - \(binding.name):" + yamlScalar(binding.value.text, indent: indent + 5)
                }
                out += "\(p)    return:" + yamlScalar(function.body.text, indent: indent + 3)
            }
        }
    }

    /// ` text\n` when the expression is one line that YAML reads back unchanged as a plain
    /// scalar; otherwise a literal block `|-` keeping the expression's own line breaks.
    private static func yamlScalar(_ text: String, indent: Int) -> String {
        let lines = dedentedLines(text)
        if lines.count == 1, let line = lines.first, isSafePlainScalar(line) { return " \(line)\n" }
        var out = " |-\n"
        for line in lines { out += line.isEmpty ? "\n" : "\(pad(indent))\(line)\n" }
        return out
    }

    private static func isSafePlainScalar(_ text: String) -> Bool {
        guard let first = text.first, !"!&*-?|>'\"%@`#{}[],:".contains(first) else { return false }
        if text.contains(": ") || text.contains(" #") || text.hasSuffix(":") { return false }
        if case .string = YAMLValues.plainScalar(text) { return true }
        return false
    }

    /// Lines of a multi-line expression with the indentation common to the lines after the
    /// first removed (the first line starts after `if`, so its indentation is not comparable).
    static func dedentedLines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.count > 1, lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        guard lines.count > 1 else { return lines.map { $0.trimmingCharacters(in: .whitespaces) } }
        let rest = lines.dropFirst().filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let common = rest.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        var out = [lines[0].trimmingCharacters(in: .whitespaces)]
        for line in lines.dropFirst() {
            let stripped = line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String(line.dropFirst(common))
            out.append("  " + stripped)
        }
        return out.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    private static func reindent(_ text: String, indent: Int) -> String {
        let lines = dedentedLines(text)
        guard lines.count > 1 else { return lines.first ?? "" }
        return ([lines[0]] + lines.dropFirst().map { $0.isEmpty ? "" : pad(indent) + $0 }).joined(separator: "\n")
    }
}
