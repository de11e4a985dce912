import Foundation
package import RegimenLanguage

/// What a load produced: the rule set (the files that decoded) and every diagnostic, sorted.
package struct RuleSetLoadResult: Sendable {
    /// The decoded, validated files; usable only when ``hasErrors`` is false.
    package let ruleSet: RuleSet
    /// Errors and warnings from every file, sorted by file, line and column.
    package let diagnostics: [Diagnostic]
    /// How many YAML files were read.
    package let fileCount: Int

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The rule set, or a ``DiagnosticsError`` carrying every diagnostic if any is an error.
    package func get() throws(DiagnosticsError) -> RuleSet {
        if hasErrors { throw DiagnosticsError(diagnostics) }
        return ruleSet
    }
}

/// Loads rule and catalog files into one ``RuleSet``, dispatching each file on its `kind:`.
///
/// Every file is a YAML mapping with `kind:` (one of the registered kinds) and `version:`.
/// `kind: functions` files are decoded first so that the helpers they declare are available to
/// every other kind; then the other files in path order; then each kind's cross-file validation.
package struct RuleSetLoader: Sendable {
    private let kinds: [String: any RuleFileKind.Type]
    /// Files of other modules' kinds, skipped, not reported.
    private let skipped: OtherModulesKinds

    /// Kinds that other modules decode, whose files a module's own load of the shared `rules/`
    /// and `catalogs/` trees skips unread. RegimenRules knows no module above it: the modules'
    /// kinds are composed where the modules meet (RegimenKit), which passes them here.
    package enum OtherModulesKinds: Sendable {
        /// Every unregistered kind is an error (`regimen check`, which registers every kind).
        case none
        /// Files of these kinds are skipped; any other unregistered kind is still an error, so a
        /// misspelt kind is reported.
        case named(Set<String>)
        /// Every file of an unregistered kind is skipped: for a module that loads the shared
        /// trees on its own and cannot know the other modules' kinds (a misspelt kind is then
        /// reported by `regimen check`, not by this load).
        case anyUnregistered
    }

    /// A loader that knows `kinds` (plus the built-in `functions` kind).
    /// If two types claim the same `kind:` the first one listed wins.
    /// - Parameter otherModulesKinds: which files of kinds this loader does not know to skip.
    package init(kinds: [any RuleFileKind.Type], otherModulesKinds: OtherModulesKinds = .none) {
        var table: [String: any RuleFileKind.Type] = [FunctionsFile.kind: FunctionsFile.self]
        for kind in kinds where table[kind.kind] == nil { table[kind.kind] = kind }
        self.kinds = table
        switch otherModulesKinds {
        case .none: skipped = .named([])
        case .named(let names): skipped = .named(names.subtracting(table.keys))
        case .anyUnregistered: skipped = .anyUnregistered
        }
    }

    /// Whether a file declaring `kind` belongs to another module and is skipped unread.
    private func skips(_ kind: String) -> Bool {
        let kind = Self.spelledWithUnderscores(kind)
        switch skipped {
        case .none: return false
        case .named(let names): return names.contains(kind)
        case .anyUnregistered: return kinds[kind] == nil
        }
    }

    /// The `kind:` values this loader understands, sorted.
    var knownKinds: [String] { kinds.keys.sorted() }

    /// Which files a load decodes.
    package enum Scope: Sendable {
        /// Every file; the normal case.
        case everything
        /// Only `kind: functions` files (other files are read but not checked), for tools such
        /// as `regimen eval` that only need the shared helpers.
        case functionsOnly
    }

    /// Loads every `*.yaml` file under the given directories.
    package func load(from sources: RuleSources, scope: Scope = .everything) -> RuleSetLoadResult {
        load(from: sources, scope: scope, replacing: [:])
    }

    /// Loads every `*.yaml` file under the given directories, reading the texts of `replacing`
    /// (by display path) instead of those files: an edit tried in memory, the file on disk
    /// neither read nor written.
    package func load(from sources: RuleSources, scope: Scope = .everything, replacing: [String: String]) -> RuleSetLoadResult {
        var files: [(path: String, text: String)] = []
        var diagnostics: [Diagnostic] = []
        var fileCount = 0
        for directory in sources.directories {
            let listing = RuleSources.yamlFiles(under: directory)
            diagnostics.append(contentsOf: listing.diagnostics.map { $0.relativized(by: sources) })
            for url in listing.files {
                fileCount += 1
                let display = sources.displayPath(for: url)
                if let text = replacing[display] {
                    files.append((display, text))
                    continue
                }
                do {
                    files.append((display, try InputFile.read(url, displayPath: display)))
                } catch {
                    diagnostics.append(contentsOf: error.diagnostics)
                }
            }
        }
        let result = load(files: files, scope: scope)
        return RuleSetLoadResult(ruleSet: result.ruleSet, diagnostics: (diagnostics + result.diagnostics).sorted(by: Diagnostic.sortKey), fileCount: fileCount)
    }

    /// Loads files given as text, for tests and tools that hold files in memory.
    /// - Parameter files: Each file's display path and contents.
    package func load(files: [(path: String, text: String)], scope: Scope = .everything) -> RuleSetLoadResult {
        let context = DecodingContext()
        var documents: [Document] = []
        var attempted: [(path: String, kind: String?)] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            if scope == .functionsOnly, !Self.declaresFunctions(file.text) { continue }
            // Another module's file is skipped before it is parsed: security test files are the
            // largest in the tree, and a planner has no use for them.
            if let kind = Self.declaredKind(file.text), skips(kind) { continue }
            attempted.append((file.path, Self.declaredKind(file.text)))
            guard let node = Self.document(file.text, file: file.path, in: context) else { continue }
            if let kind = node["kind"]?.scalar?.text, skips(kind) { continue }
            if let header = header(of: node, in: context) {
                documents.append(Document(path: file.path, kind: header.kind, version: header.version, node: node, text: file.text))
            }
        }

        // Functions first, so every other kind's expressions can call them.
        var decoded: [RuleFile] = []
        for document in documents where document.kind == FunctionsFile.kind {
            if let file = decode(document, in: context) { decoded.append(file) }
        }
        let functions = ExpressionFunctions(decoded.compactMap { $0.content as? FunctionsFile }.flatMap(\.declarations))
        let services = DecodingServices(expressionFunctions: functions, expressionEnvironment: functions.compileEnvironment(into: context))
        let kindContext = DecodingContext(services: services)
        for document in documents where document.kind != FunctionsFile.kind {
            if let file = decode(document, in: kindContext) { decoded.append(file) }
        }
        let loadedPaths = Set(decoded.map(\.path))
        var failedFiles: [String: String] = [:]
        for (path, kind) in attempted where !loadedPaths.contains(path) {
            if let kind, failedFiles[kind] == nil { failedFiles[kind] = path }
        }
        let ruleSet = RuleSet(files: decoded, functions: functions, expressionEnvironment: services.expressionEnvironment, failedFiles: failedFiles)
        for kind in kinds.keys.sorted() where scope == .everything || kind == FunctionsFile.kind {
            kinds[kind]?.validate(ruleSet, context: kindContext)
        }
        if scope == .everything { Self.checkVocabularyUses(kindContext, ruleSet: ruleSet, kinds: kinds.values.map { $0 }) }
        // Files that share a dependency (test files naming one policy) may report the same problem.
        var diagnostics: [Diagnostic] = []
        for diagnostic in (context.diagnostics + kindContext.diagnostics).sorted(by: Diagnostic.sortKey) where diagnostics.last != diagnostic {
            diagnostics.append(diagnostic)
        }
        return RuleSetLoadResult(ruleSet: ruleSet, diagnostics: diagnostics, fileCount: files.count)
    }

    /// Every string an expression compares with a named vocabulary names one of its values (an
    /// error at the string, with a suggestion), and so does every string of a definition (a fact)
    /// an expression compares with a vocabulary or an enumeration. A vocabulary no loaded kind
    /// names is not checked (a loader for some kinds only).
    private static func checkVocabularyUses(_ context: DecodingContext, ruleSet: RuleSet, kinds: [any RuleFileKind.Type]) {
        var vocabularies: [String: Set<String>] = [:]
        for kind in kinds {
            vocabularies.merge(kind.vocabularies(ruleSet)) { $0.union($1) }
        }
        for use in context.vocabularyUses {
            guard let known = vocabularies[use.vocabulary], !known.contains(use.value) else { continue }
            context.error(
                "expr.unknown-value",
                "'\(use.value)' is not a value of \(use.subject)\(use.subject == use.vocabulary ? "" : " (a \(use.vocabulary) id)")\(Suggestion.clause(for: use.value, among: known.sorted()))",
                at: use.location)
        }
        // A name compared with an enumeration or a vocabulary (`item.id in minor_allowed`): each
        // string of its definition in the same file must be one of the values, at the string.
        var reported: Set<LiteralString> = []
        for use in context.comparedNames {
            for definition in context.definitions where definition.name == use.name && definition.file == use.location?.file {
                let known: Set<String>?
                var kind = ""
                if let values = use.type.values {
                    known = Set(values)
                } else if let vocabulary = use.type.vocabulary, let words = vocabularies[vocabulary] {
                    known = words
                    kind = use.subject == vocabulary ? "" : " (a \(vocabulary) id)"
                } else {
                    known = nil
                }
                guard let known else { continue }
                for string in definition.strings where !known.contains(string.text) && reported.insert(string).inserted {
                    context.error(
                        "expr.unknown-value",
                        "'\(string.text)' is not a value of \(use.subject)\(kind), which '\(use.name)' is compared with\(Suggestion.clause(for: string.text, among: known.sorted()))",
                        at: string.location,
                        notes: use.location.map { ["compared at \($0)"] } ?? [])
                }
            }
        }
    }

    /// A cheap look at the text: does a top-level `kind: functions` line appear?
    static func declaresFunctions(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            line.hasPrefix("kind:") && line.dropFirst(5).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) == FunctionsFile.kind
        }
    }

    /// `security-rules` → `security_rules`: the spelling of every kind.
    static func spelledWithUnderscores(_ kind: String) -> String { kind.replacingOccurrences(of: "-", with: "_") }

    /// The value of the first top-level `kind:` line, read without parsing the file (a trailing
    /// comment is ignored); nil when there is none.
    private static func declaredKind(_ text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("kind:") {
            let value = line.dropFirst(5).prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            return value.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        }
        return nil
    }

    /// The YAML document of a rule file's `text`, or `nil` with its syntax errors (or that it is
    /// empty) reported.
    static func document(_ text: String, file: String, in context: DecodingContext) -> LocatedNode? {
        let read = YAMLReader.read(text, file: file)
        context.report(contentsOf: read.diagnostics)
        guard read.diagnostics.isEmpty else { return nil }
        guard let node = read.document else {
            context.error("rules.empty-file", "file is empty; a rule file starts with 'kind:' and 'version:'", at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        return node
    }

    /// Reads `kind:` and `version:` and checks them against the registered kinds.
    private func header(of node: LocatedNode, in context: DecodingContext) -> (kind: String, version: Int)? {
        Self.header(of: node, kinds: kinds, in: context)
    }

    /// Reads `kind:` and `version:` and checks them against `kinds`.
    static func header(of node: LocatedNode, kinds: [String: any RuleFileKind.Type], in context: DecodingContext) -> (kind: String, version: Int)? {
        let knownKinds = kinds.keys.sorted()
        guard node.mapping != nil else {
            context.error("rules.wrong-type", "a rule file must be a mapping with 'kind:' and 'version:', not \(node.kindDescription)", at: node.location)
            return nil
        }
        let path = DecodingPath()
        var kind: String?
        if let kindNode = node["kind"] {
            if let name = context.decode(kindNode, as: String.self, at: path.appending(key: "kind")) {
                let underscored = Self.spelledWithUnderscores(name)
                if kinds[name] != nil {
                    kind = name
                } else if underscored != name, kinds[underscored] != nil {
                    // Kinds are spelled with underscores; the hyphenated spelling security files
                    // once used still loads, with a warning, so existing files keep working.
                    context.warning("rules.deprecated-kind", "kind '\(name)' is spelled '\(underscored)'; the hyphenated spelling is deprecated", at: kindNode.location)
                    kind = underscored
                } else {
                    let suggestion = Suggestion.clause(for: name, among: knownKinds)
                    context.error("rules.unknown-kind", "unknown kind '\(name)'\(suggestion)", at: kindNode.location,
                                  notes: ["known kinds: \(knownKinds.joined(separator: ", "))"])
                }
            }
        } else {
            context.error("rules.missing-key", "missing required key 'kind'", at: node.location,
                          notes: ["known kinds: \(knownKinds.joined(separator: ", "))"])
        }
        var version: Int?
        if let versionNode = node["version"] {
            version = context.decode(versionNode, as: Int.self, at: path.appending(key: "version"))
            if let number = version, let name = kind, let type = kinds[name], !type.versions.contains(number) {
                let supported = type.versions.count == 1 ? "version \(type.versions.lowerBound)" : "versions \(type.versions.lowerBound) to \(type.versions.upperBound)"
                context.error("rules.unsupported-version", "kind '\(name)' supports \(supported), not \(number)", at: versionNode.location)
                version = nil
            }
        } else {
            context.error("rules.missing-key", "missing required key 'version'", at: node.location)
        }
        guard let kind, let version else { return nil }
        return (kind, version)
    }

    /// A file whose header checked out, waiting to be decoded.
    private struct Document {
        let path: String
        let kind: String
        let version: Int
        let node: LocatedNode
        let text: String
    }

    private func decode(_ document: Document, in context: DecodingContext) -> RuleFile? {
        guard let type = kinds[document.kind] else { return nil }
        let content: (any RuleFileKind)? = context.mapping(document.node, at: DecodingPath()) { map in
            map.allow("kind", "version")
            return type.decode(&map, text: document.text)
        }
        return content.map { RuleFile(path: document.path, kind: document.kind, version: document.version, content: $0) }
    }
}

extension Diagnostic {
    func relativized(by sources: RuleSources) -> Diagnostic {
        guard let location else { return self }
        var copy = self
        copy.location = SourceLocation(file: sources.displayPath(for: URL(fileURLWithPath: location.file)), line: location.line, column: location.column)
        return copy
    }
}
