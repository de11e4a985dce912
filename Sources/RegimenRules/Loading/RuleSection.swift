package import RegimenLanguage

/// A part of a rule file whose entries a coach can point at one by one: the rows of a decision
/// table, the named entries of a mapping or the items of a list. A kind lists its sections
/// (``RuleFileKind/ruleSections``); coverage, plan tests and explanations name a rule only
/// through them, so a new kind's rules are covered with no table elsewhere to update.
package struct RuleSection: Sendable, Hashable {
    /// How the section's entries are written, and so how each is named.
    package enum Layout: Sendable, Hashable {
        /// `key: {rows: [{when: …}]}`: a row is `kind.key.rows[n]` (``RowAddress``); `inputs` are
        /// the variables its `when:` conditions read, the ones its decoder compiles them against
        /// and coverage evaluates them with.
        case table(inputs: [VariableDeclaration])
        /// `key: {name: …}`: an entry is `kind.key.name`.
        case entries
        /// `key: [{idKey: name, …}]`: an item is `kind.key.name`.
        case list(idKey: String)
    }

    /// The `kind:` of the files that hold the section.
    package let kind: String
    /// The section's top-level key.
    package let key: String
    /// What one entry is, in a coach's words (`band row`, `supplement caution`).
    package let category: String
    package let layout: Layout

    /// The section `key` of `kind`'s files.
    package init(_ kind: any RuleFileKind.Type, _ layout: Layout, key: String, category: String) {
        self.kind = kind.kind
        self.key = key
        self.category = category
        self.layout = layout
    }

    /// `kind.key`, the section's name in diagnostics and explanations.
    package var name: String { "\(kind).\(key)" }

    /// The stable name of the entry `name` (an entries or list section).
    package func id(_ name: String) -> String { "\(self.name).\(name)" }

    /// The variables a table section's conditions read; empty for the other layouts.
    package var inputs: [VariableDeclaration] {
        if case .table(let inputs) = layout { inputs } else { [] }
    }

    /// The stable name of the row at zero-based `index` (a table section).
    package func rowId(_ index: Int) -> String { RowAddress.of(table: name, index: index) }
}
