package import Foundation

/// Where `get()`, `exists()` and `getAfter()` read when documents are live: a Firestore
/// database, through its REST API, instead of the `--documents` files.
package struct LiveDocumentSettings: Sendable {
    /// How the service proves itself to Firestore.
    package enum Credentials: Sendable {
        /// `Authorization: Bearer owner`: what Google's emulator takes as the project's owner
        /// (rules bypassed). Only for the emulator.
        case emulatorOwner
        /// A Google service-account key file (`type: service_account`, `client_email`,
        /// `private_key`, `token_uri`): an OAuth access token is obtained with a signed JWT
        /// (RFC 7523) and used until shortly before it expires.
        case serviceAccount(URL)
    }

    /// Firestore's REST root: `https://firestore.googleapis.com`, or the emulator's
    /// `http://127.0.0.1:8080`.
    var endpoint: URL
    /// The Google Cloud project whose database is read.
    var project: String
    var credentials: Credentials
    /// The longest one read (one `batchGet` call, or obtaining a token) may take; past it the
    /// decision is a deny.
    package var timeout: Duration
    /// How long a document read stays usable by later decisions; zero turns the cache off.
    var cacheTTL: Duration
    /// The most documents (present or known missing) the cache holds; the oldest go first.
    var cacheEntries: Int

    package init(
        endpoint: URL, project: String, credentials: Credentials, timeout: Duration = .seconds(2), cacheTTL: Duration = .seconds(1),
        cacheEntries: Int = 10_000
    ) {
        self.endpoint = endpoint
        self.project = project
        self.credentials = credentials
        self.timeout = timeout
        self.cacheTTL = cacheTTL
        self.cacheEntries = cacheEntries
    }
}
