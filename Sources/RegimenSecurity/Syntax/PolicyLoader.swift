import Foundation
package import RegimenLanguage
import RegimenRules

/// Reads a policy in either syntax, chosen by file extension: `.yaml`/`.yml` is the YAML form
/// (`kind: security_rules`), anything else (`.rules`) the native syntax.
package enum PolicyLoader {
    package static func load(file: String) throws(DiagnosticsError) -> SecurityPolicy {
        try parse(try InputFile.read(path: file), file: file)
    }

    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        if file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
            return try YAMLPolicyReader.parse(text, file: file)
        }
        return try RulesFileParser.parse(text, file: file)
    }
}
