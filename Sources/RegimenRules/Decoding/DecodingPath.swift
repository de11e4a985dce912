/// Who and what a decoding message is about: the rule (`rule 'sleep_low'`) and the key path
/// inside it (`when.days`, `rows[2].then`).
///
/// Messages read `rule 'sleep_low': 'when.days' must be an integer, not a string`; with no
/// subject the key path stands alone.
public struct DecodingPath: Sendable, Hashable, CustomStringConvertible {
    /// The rule or entry the message names, such as `rule 'sleep_low'`; may be empty.
    public var subject: String
    /// Dotted key path inside the subject; empty at the subject's own level.
    public var keyPath: String

    public init(subject: String = "", keyPath: String = "") {
        self.subject = subject
        self.keyPath = keyPath
    }

    /// The path one key deeper.
    public func appending(key: String) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
    }

    /// The path of one list element.
    public func appending(index: Int) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: "\(keyPath)[\(index)]")
    }

    /// The same key path under another subject (once an entry's id is known).
    public func about(_ subject: String) -> DecodingPath {
        DecodingPath(subject: subject, keyPath: keyPath)
    }

    /// `'when.days'`, or `value` at the top of a subject.
    public var quotedKey: String { keyPath.isEmpty ? "value" : "'\(keyPath)'" }

    /// `subject: text`, or just `text` without a subject.
    public func prefixed(_ text: String) -> String { subject.isEmpty ? text : "\(subject): \(text)" }

    /// A complaint about the value at this path: `subject: 'key' <problem>`.
    public func message(_ problem: String) -> String { prefixed("\(quotedKey) \(problem)") }

    public var description: String { prefixed(quotedKey) }
}
