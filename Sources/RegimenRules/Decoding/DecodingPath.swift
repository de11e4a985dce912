/// Who and what a decoding message is about: the rule (`rule 'sleep_low'`) and the key path
/// inside it (`when.days`, `rows[2].then`).
///
/// Messages read `rule 'sleep_low': 'when.days' must be an integer, not a string`; with no
/// subject the key path stands alone.
package struct DecodingPath: Sendable, Hashable, CustomStringConvertible {
    /// The rule or entry the message names, such as `rule 'sleep_low'`; may be empty.
    var subject: String
    /// Dotted key path inside the subject; empty at the subject's own level.
    package var keyPath: String

    package init(subject: String = "", keyPath: String = "") {
        self.subject = subject
        self.keyPath = keyPath
    }

    /// The path one key deeper.
    package func appending(key: String) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
    }

    /// The path of one list element.
    package func appending(index: Int) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: "\(keyPath)[\(index)]")
    }

    /// The same key path under another subject (once an entry's id is known).
    package func about(_ subject: String) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: keyPath)
    }

    /// `'when.days'`, or `value` at the top of a subject.
    var quotedKey: String { keyPath.isEmpty ? "value" : "'\(keyPath)'" }

    /// `subject: text`, or just `text` without a subject.
    package func prefixed(_ text: String) -> String { subject.isEmpty ? text : "\(subject): \(text)" }

    /// A complaint about the value at this path: `subject: 'key' <problem>`.
    package func message(_ problem: String) -> String { prefixed("\(quotedKey) \(problem)") }

    package var description: String { prefixed(quotedKey) }
}
