import RegimenLanguage

/// A map whose fields are read field by field: the root (`new` = `request.resource.data`, `old` =
/// `resource.data`, `token` = `request.auth.token`, `docN` = a `get()` document) and a field path.
struct MapRef: Hashable, Sendable {
    var root: String
    var path: [String]

    func child(_ key: String) -> MapRef { MapRef(root: root, path: path + [key]) }
}

/// A document the rules see: `resource`, `request.resource` or the result of `get()`.
struct DocRef: Sendable {
    /// SMT Bool: the document exists.
    var exists: String
    var data: MapRef
    /// V term of the document id (its last path segment), when known.
    var id: String?
}

/// The value of an expression during symbolic evaluation: an SMT term of sort `V`, or a structure
/// the encoder keeps in Swift so that field reads stay exact.
indirect enum SymbolicValue {
    /// An SMT term of sort `V`.
    case term(String)
    /// A string known while encoding (a literal, a key).
    case string(String)
    /// A value that may be a map whose fields are read one by one; `error` is an SMT Bool that
    /// holds when reading the value itself errors (a missing field, a null document).
    case map(MapRef, error: String)
    /// A document, or null when `exists` is false; reading it errors when `error` holds.
    case doc(DocRef, error: String)
    /// `request.auth`: null when signed out.
    case auth
    /// `request`.
    case request
    case list([SymbolicValue])
    case literalMap([(String, SymbolicValue)])
    /// A path value `/databases/…`: its segments.
    case path([SymbolicValue])
    /// A namespace such as `math` or `hashing`.
    case namespace(String)
    /// `map.keys()` of a map read field by field (for `hasOnly`, `hasAll`, `hasAny`); `error`
    /// holds when reading the map errors.
    case keys(MapRef, error: String)
    /// `a.diff(b)` of two maps read field by field; `error` holds when reading either errors.
    case mapDiff(MapRef, MapRef, error: String)
    /// `a.diff({})`: every key of `a` is added, so its `affectedKeys()` are `a.keys()`.
    case mapDiffFromEmpty(MapRef, error: String)
    /// One of two values by an SMT Bool (`map.get(key, fallback)`: the fallback when the field is
    /// absent, else the field); member reads, methods and `in` apply to each side, so both keep
    /// their structure. Reading it errors when `error` holds.
    case choice(error: String, condition: String, ifTrue: SymbolicValue, ifFalse: SymbolicValue)
    /// `map.values()` of a map read field by field (for `hasOnly` of literal values).
    case mapValues(MapRef, error: String)
    /// `list.toSet()` of a field read from data, with the term of the set (abstract): its `size()`
    /// is the number of distinct elements, exact for a short list.
    case listAsSet(MapRef, term: String)
    /// `a.diff(b).affectedKeys()` (for `hasOnly`, `hasAll`, `hasAny` of literal keys).
    case affectedKeys(MapRef, MapRef, error: String)
}

/// A construct the encoding does not cover exactly and abstracts soundly (its result is an
/// unconstrained value): a proof stays a proof, a counterexample that depends on it may not
/// reproduce.
package struct Abstraction: Sendable, Hashable, CustomStringConvertible {
    /// The construct, e.g. `matches()`.
    package var construct: String
    /// Where it is (`file:line:col`), when known.
    package var location: String

    package var description: String { location.isEmpty ? construct : "\(construct) at \(location)" }
}
