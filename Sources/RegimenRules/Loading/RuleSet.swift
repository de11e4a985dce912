package import RegimenLanguage

/// One decoded rule file: where it came from and its typed content.
package struct RuleFile: Sendable {
    /// The file's path as shown in diagnostics.
    package let path: String
    /// The `kind:` it declared.
    package let kind: String
    /// The `version:` it declared.
    let version: Int
    /// The decoded model; cast with `as? MyKind` or use ``RuleSet/all(_:)``.
    package let content: any RuleFileKind

    package init(path: String, kind: String, version: Int, content: any RuleFileKind) {
        self.path = path
        self.kind = kind
        self.version = version
        self.content = content
    }
}

/// Every rule and catalog file of a load, decoded and validated: an immutable value that any
/// number of threads may read at once.
///
/// Files are ordered by path, so iteration (and everything derived from it) is deterministic.
package struct RuleSet: Sendable {
    /// The decoded files, ordered by path. Files with errors that prevented decoding are absent.
    package let files: [RuleFile]
    /// Helper functions declared by `kind: functions` files, callable from every expression.
    package let functions: ExpressionFunctions
    /// The compiled shared functions; extend it with variables to compile expressions at run time
    /// (`ExpressionEnvironment(variables: [...], parent: ruleSet.expressionEnvironment)`).
    package let expressionEnvironment: ExpressionEnvironment
    /// Files that declared a kind but did not load (their errors are reported with the load),
    /// by kind: the path of the first such file.
    let failedFiles: [String: String]

    init(
        files: [RuleFile], functions: ExpressionFunctions = ExpressionFunctions(), expressionEnvironment: ExpressionEnvironment = .empty,
        failedFiles: [String: String] = [:]
    ) {
        self.files = files.sorted { $0.path < $1.path }
        self.functions = functions
        self.expressionEnvironment = expressionEnvironment
        self.failedFiles = failedFiles
    }

    /// The error for a kind a module needs and this rule set lacks. When a file of that kind was
    /// there but did not load, the error points at that file (whose own errors say why) instead
    /// of claiming that no such file exists.
    /// The words of vocabulary `name` the loaded files declare (``RuleFileKind/vocabularies(_:)``:
    /// `goal` → the goal ids of rules/goals.yaml), or `nil` when no loaded file declares it. For a
    /// kind that checks a word against another module's file without naming its type.
    package func vocabulary(_ name: String) -> Set<String>? {
        var words: Set<String>?
        var kinds: Set<String> = []
        for file in files where kinds.insert(file.kind).inserted {
            if let declared = type(of: file.content).vocabularies(self)[name] { words = (words ?? []).union(declared) }
        }
        return words
    }

    package func missingKind(_ kind: String, neededBy consumer: String? = nil, hint: String? = nil) -> Diagnostic {
        let needed = consumer.map { " (needed by \($0))" } ?? ""
        if let path = failedFiles[kind] {
            return .error("rules.kind-unavailable", "the '\(kind)' rules of this file are unavailable\(needed) because the file has errors",
                          at: SourceLocation(file: path, line: 1, column: 1))
        }
        return .error("rules.missing-kind", "no rule file of kind '\(kind)'\(hint.map { " (\($0))" } ?? "")\(consumer == nil ? "" : " was loaded")\(needed)", at: nil)
    }

    /// The content of every file of kind `K`, in path order.
    package func all<K: RuleFileKind>(_ kind: K.Type) -> [K] {
        files.compactMap { $0.content as? K }
    }

    /// The files of kind `K` with their paths, in path order.
    package func files<K: RuleFileKind>(of kind: K.Type) -> [(path: String, content: K)] {
        files.compactMap { file in (file.content as? K).map { (file.path, $0) } }
    }

    /// The content of the first file of kind `K` in path order, if any.
    package func first<K: RuleFileKind>(_ kind: K.Type) -> K? {
        for file in files { if let content = file.content as? K { return content } }
        return nil
    }

    /// Total rules over all files (each kind counts its own).
    package var ruleCount: Int { files.reduce(0) { $0 + $1.content.ruleCount } }

    /// Total catalog entries over all files.
    package var catalogEntryCount: Int { files.reduce(0) { $0 + $1.content.catalogEntryCount } }
}
