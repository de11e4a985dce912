package import RegimenLanguage

/// Where the words of some lists are written, by the entry that holds them and the key.
///
/// Checks made once every file is read (a muscle the volume rules track, an equipment tag, an
/// exercise id) know the entry they check, not where each word of its lists stands; decoders note
/// the words here as they read them, so such an error is reported at the word itself, where the
/// coach typed it, rather than at the entry.
struct WordPlaces {
    private struct Owner: Hashable {
        var entry: SourceLocation
        var key: String
    }

    private var places: [Owner: [(word: String, location: SourceLocation)]] = [:]

    /// Notes the words under each of `keys` of `node` (a word, a list's elements, or a mapping's
    /// keys; `roles.chest` for a list one level down; `patterns.*` for a mapping's values) as
    /// belonging to `entry`, under the key as given.
    mutating func note(_ keys: [String], of node: LocatedNode, entry: SourceLocation) {
        for key in keys {
            var value: LocatedNode? = node
            var parts = key.split(separator: ".").map(String.init)
            // `.*`: the words are the mapping's values (pattern → muscle), not its keys.
            let valuesOfMapping = parts.last == "*"
            if valuesOfMapping { parts.removeLast() }
            for part in parts { value = value?[part] }
            guard let value else { continue }
            let items = valuesOfMapping ? (value.mapping ?? []).map(\.value) : value.sequence ?? value.mapping?.map(\.key) ?? [value]
            places[Owner(entry: entry, key: key), default: []] += items.compactMap { item in item.scalar.map { ($0.text, item.location) } }
        }
    }

    /// Where `word` is written under `key` of `entry`: its first place, or `nil` when not noted.
    func location(of word: String, under key: String, in entry: SourceLocation) -> SourceLocation? {
        places[Owner(entry: entry, key: key)]?.first { $0.word == word }?.location
    }
}

extension DecodingContext {
    /// Notes where the words under `keys` of `node` are written, as belonging to `entry` (the
    /// location checks across files report the entry at); nothing in describing mode.
    package func noteWords(_ keys: [String], of node: LocatedNode, entry: SourceLocation?) {
        guard !isDescribing, let entry else { return }
        wordPlaces.note(keys, of: node, entry: entry)
    }

    /// Where `word` is written under `key` of the entry at `entry`, when a decoder noted it
    /// (``noteWords(_:of:entry:)``); otherwise `entry` itself.
    package func location(of word: String, under key: String, in entry: SourceLocation?) -> SourceLocation? {
        guard let entry else { return nil }
        return wordPlaces.location(of: word, under: key, in: entry) ?? entry
    }
}
