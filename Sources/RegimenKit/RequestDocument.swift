import Foundation
import RegimenLanguage
import RegimenRules

/// How the engine reads a request body it is handed as bytes: the input-file limits first (size,
/// UTF-8), then YAML (which JSON is), every problem located in `name`.
enum RequestDocument {
    /// The body as text, within the input-file limits.
    static func text(_ data: Data, name: String) throws(RegimenError) -> String {
        do {
            return try InputFile.checkedText(data, displayPath: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
    }

    /// The body's document value; an empty body or a syntax error is a request error.
    static func value(_ data: Data, name: String) throws(RegimenError) -> Value {
        try node(data, name: name).value()
    }

    /// The body's document with the location of every node, for placing the problems found on
    /// its value; an empty body or a syntax error is a request error.
    static func node(_ data: Data, name: String) throws(RegimenError) -> LocatedNode {
        let read = YAMLReader.read(try text(data, name: name), file: name)
        guard read.diagnostics.isEmpty, let document = read.document else {
            throw .request(read.diagnostics.isEmpty ? [.error("request.empty", "the document is empty", at: nil)] : read.diagnostics, input: name)
        }
        return document
    }
}
