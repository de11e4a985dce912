package import RegimenLanguage

/// Collects the diagnostics of one decoding pass, so a rule file reports every mistake at once.
///
/// Decoders never throw: on a problem they record a diagnostic and return `nil` (or a default)
/// and carry on with the next key. A context belongs to a single load on a single thread.
package final class DecodingContext {
    private var collector = DiagnosticCollector()
    /// Environments built by ``environment(variables:)``, keyed by their variable list.
    var environments: [[String]: ExpressionEnvironment] = [:]
    /// Values other decoders need while this pass runs (shared expression functions, for one).
    let services: DecodingServices
    /// Set in describing mode (``describing()``): decoders record shapes instead of reading.
    var recorder: ShapeRecorder?
    /// Where the words of some lists are written (``noteWords(_:of:entry:)``).
    var wordPlaces = WordPlaces()
    /// Strings the compiled expressions compare with a named vocabulary, at their place in the
    /// file; the loader checks them against the rule set's vocabularies once every file is read.
    package private(set) var vocabularyUses: [VocabularyUse] = []

    /// Notes the vocabulary uses of an expression compiled from `source`, at their file places.
    package func recordVocabularyUses(of expression: CompiledExpression, from source: ExpressionSource) {
        for use in expression.vocabularyUses {
            var located = use
            located.location = Self.fileLocation(use.location, in: source)
            vocabularyUses.append(located)
        }
        for use in expression.comparedNames {
            var located = use
            located.location = Self.fileLocation(use.location, in: source)
            comparedNames.append(located)
        }
    }

    /// Variables the compiled expressions compare with a declared enumeration or vocabulary, at
    /// their place in the file: the loader checks the strings of the definitions they name.
    package private(set) var comparedNames: [ComparedName] = []
    /// Named definitions whose expression is a string or a list of strings (a fact
    /// `minor_allowed: "['whey_protein', …]"`), by file, with each string at its place.
    private(set) var definitions: [Definition] = []

    /// A named expression of a file made only of string literals.
    package struct Definition: Sendable {
        package var file: String
        package var name: String
        package var strings: [LiteralString]
    }

    /// Notes that `name` is defined by `expression` (compiled from `source`), so that its strings
    /// are checked against whatever the file's other expressions compare `name` with.
    func recordDefinition(_ name: String, of expression: CompiledExpression, from source: ExpressionSource) {
        guard let strings = expression.literalStrings, !strings.isEmpty else { return }
        let located = strings.map { LiteralString(text: $0.text, location: Self.fileLocation($0.location, in: source)) }
        guard let file = located.first?.location?.file else { return }
        definitions.append(Definition(file: file, name: name, strings: located))
    }

    private static func fileLocation(_ location: SourceLocation?, in source: ExpressionSource) -> SourceLocation? {
        source.correcting(.error("", "", at: location)).location
    }

    /// A context with nothing shared beyond diagnostics.
    package init(services: DecodingServices = DecodingServices()) {
        self.services = services
    }

    /// Everything reported so far, in the order reported.
    package var diagnostics: [Diagnostic] { collector.diagnostics }

    /// Whether any error (not warning) has been reported.
    package var hasErrors: Bool { collector.hasErrors }

    /// Records a diagnostic as given.
    package func report(_ diagnostic: Diagnostic) { collector.append(diagnostic) }

    /// Records several diagnostics, for example the ones a compiler threw.
    package func report(contentsOf diagnostics: [Diagnostic]) { collector.append(contentsOf: diagnostics) }

    /// Records an error.
    /// - Parameters:
    ///   - id: Stable identifier such as `rules.unknown-key`.
    ///   - message: Lower-case, no trailing period, naming the rule (see ``DecodingPath``).
    package func error(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        collector.error(id, message, at: location, notes: notes)
    }

    /// Records a warning.
    package func warning(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        collector.warning(id, message, at: location, notes: notes)
    }

    /// Decodes `node` as a mapping and hands its keys to `body`; afterwards every key `body` did not
    /// read is reported as unknown, with a suggestion among the keys it did ask for.
    ///
    /// Reports an error and returns `nil` when `node` is not a mapping.
    package func mapping<Result>(
        _ node: LocatedNode, at path: DecodingPath, _ body: (inout MappingDecoder) -> Result?
    ) -> Result? {
        guard var decoder = MappingDecoder(node, path: path, context: self) else { return nil }
        if let recorder {
            _ = body(&decoder)
            recorder.record(.mapping(decoder.finishDescribing(recorder)), for: node)
            return nil
        }
        let result = body(&decoder)
        decoder.reportUnknownKeys()
        return result
    }

    /// Decodes `node` as a list, calling `element` for each item with its index and path.
    /// Items that fail to decode are left out (their errors are already reported).
    package func list<Element>(
        _ node: LocatedNode, at path: DecodingPath, _ element: (LocatedNode, DecodingPath) -> Element?
    ) -> [Element]? {
        if let recorder {
            recorder.record(.list(recorder.capture { _ = element(ShapeRecorder.placeholder, path.appending(index: 0)) }), for: node)
            return []
        }
        guard let items = node.sequence else {
            error("rules.wrong-type", path.message("must be a list, not \(node.kindDescription)"), at: node.location)
            return nil
        }
        return items.enumerated().compactMap { index, item in element(item, path.appending(index: index)) }
    }

    /// Decodes `node` as `T`, reporting a wrong type or value at `path`.
    package func decode<T: NodeDecodable>(_ node: LocatedNode, as type: T.Type = T.self, at path: DecodingPath) -> T? {
        T.decode(from: node, at: path, in: self)
    }

    /// Reports every id that appears more than once, at each repeat, with a note naming the first.
    /// - Parameters:
    ///   - ids: Each id with where it is written, in file order.
    ///   - what: What the ids name, for the message (`rule`, `exercise`).
    package func checkUnique(_ ids: [(id: String, location: SourceLocation)], what: String) {
        var first: [String: SourceLocation] = [:]
        for (id, location) in ids {
            if let earlier = first[id] {
                error("rules.duplicate-id", "duplicate \(what) id '\(id)'", at: location, notes: ["first defined at \(earlier)"])
            } else {
                first[id] = location
            }
        }
    }

    /// Reports a reference to an id that names nothing, suggesting the closest known id.
    /// - Returns: Whether `id` is among `known`.
    @discardableResult
    package func checkReference(
        _ id: String, at location: SourceLocation, path: DecodingPath, what: String, known: Set<String>,
        diagnostic: String = "rules.unknown-reference"
    ) -> Bool {
        guard !known.contains(id) else { return true }
        let suggestion = Suggestion.clause(for: id, among: known.sorted())
        error(diagnostic, path.message("names unknown \(what) '\(id)'\(suggestion)"), at: location)
        return false
    }
}

/// Shared values decoders can use, made before any rule-file kind decodes.
///
/// The loader fills it from earlier passes (for instance the helper functions declared in
/// `kind: functions` files) so later kinds can compile expressions that call them.
package struct DecodingServices: Sendable {
    /// Helper functions declared by `kind: functions` files, callable from every expression.
    var expressionFunctions: ExpressionFunctions
    /// The compiled functions: the parent of every environment ``DecodingContext/environment(variables:)`` makes.
    package var expressionEnvironment: ExpressionEnvironment

    init(expressionFunctions: ExpressionFunctions = ExpressionFunctions(), expressionEnvironment: ExpressionEnvironment = .empty) {
        self.expressionFunctions = expressionFunctions
        self.expressionEnvironment = expressionEnvironment
    }
}
