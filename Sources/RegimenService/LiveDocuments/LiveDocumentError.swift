/// Why live documents could not be read; every such failure denies the decisions waiting on
/// them (fail closed).
package struct LiveDocumentError: Error, Sendable, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }
}
