import Foundation
import RegimenLanguage

/// Reads a policy in either syntax, chosen by file extension: `.yaml`/`.yml` is the YAML form
/// (`kind: security-rules`), anything else (`.rules`) the native syntax.
public enum PolicyLoader {
    public static func load(file: String) throws(DiagnosticsError) -> SecurityPolicy {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw DiagnosticsError([.error("rules.read", "cannot read \(file)", at: nil)])
        }
        return try parse(text, file: file)
    }

    public static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        if file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
            return try YAMLPolicyReader.parse(text, file: file)
        }
        return try RulesFileParser.parse(text, file: file)
    }
}
