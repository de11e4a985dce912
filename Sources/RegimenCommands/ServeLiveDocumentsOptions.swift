import ArgumentParser
import Foundation
import RegimenService

/// `regimen serve`'s options for live documents: `get()` and `exists()` read a Firestore
/// database through its REST API instead of `--documents` files.
struct ServeLiveDocumentsOptions: ParsableArguments {
    @Option(name: .customLong("firestore-emulator"), help: ArgumentHelp(
        "HOST:PORT of Google's Firestore emulator: authorize reads its documents (as the owner, rules bypassed).", valueName: "host:port"))
    var firestoreEmulator: String?

    @Option(name: .customLong("firestore-url"), help: ArgumentHelp(
        "Firestore's REST root (https://firestore.googleapis.com): authorize reads the database's documents, with --firestore-credentials.", valueName: "url"))
    var firestoreURL: String?

    @Option(name: .customLong("firestore-credentials"), help: ArgumentHelp(
        "Service-account key file (JSON) whose access token reads the database (scope datastore).", valueName: "file"))
    var firestoreCredentials: String?

    @Option(name: .customLong("firestore-project"), help: ArgumentHelp("The Google Cloud project of the database live documents come from.", valueName: "id"))
    var firestoreProject: String?

    @Option(name: .customLong("firestore-timeout"), parsing: .unconditional, help: "Seconds one read may take; past it the decisions waiting on it are denied.")
    var firestoreTimeout = 2.0

    @Option(name: .customLong("firestore-cache-ttl"), parsing: .unconditional, help: "Seconds a document read stays usable by later decisions (0: no cache).")
    var firestoreCacheTTL = 1.0

    @Option(name: .customLong("firestore-cache-entries"), parsing: .unconditional, help: "The most documents the cache holds; the oldest read leave first.")
    var firestoreCacheEntries = 10_000

    var isEnabled: Bool { firestoreEmulator != nil || firestoreURL != nil }

    func validate(documents: String?) throws {
        guard isEnabled else {
            if firestoreProject != nil || firestoreCredentials != nil {
                throw ValidationError("--firestore-project and --firestore-credentials need --firestore-emulator or --firestore-url")
            }
            return
        }
        guard (firestoreEmulator == nil) != (firestoreURL == nil) else { throw ValidationError("--firestore-emulator and --firestore-url exclude each other") }
        guard documents == nil else { throw ValidationError("--documents and live documents (--firestore-emulator, --firestore-url) exclude each other") }
        guard let project = firestoreProject, !project.isEmpty, !project.contains("/") else { throw ValidationError("live documents need --firestore-project") }
        if firestoreURL != nil, firestoreCredentials == nil { throw ValidationError("--firestore-url needs --firestore-credentials (a service-account key file)") }
        if firestoreEmulator != nil, firestoreCredentials != nil { throw ValidationError("--firestore-emulator takes no --firestore-credentials (it reads as the owner)") }
        guard firestoreTimeout > 0, firestoreTimeout <= 60, firestoreTimeout.isFinite else { throw ValidationError("--firestore-timeout must be more than 0 and at most 60 seconds") }
        guard firestoreCacheTTL >= 0, firestoreCacheTTL <= 300, firestoreCacheTTL.isFinite else { throw ValidationError("--firestore-cache-ttl must be 0–300 seconds") }
        guard (0...1_000_000).contains(firestoreCacheEntries) else { throw ValidationError("--firestore-cache-entries must be 0–1000000") }
        _ = try endpoint()
    }

    private func endpoint() throws -> URL {
        if let firestoreEmulator {
            guard let url = URL(string: "http://\(firestoreEmulator)"), url.host != nil, url.port != nil, url.path.isEmpty else {
                throw ValidationError("--firestore-emulator takes HOST:PORT, not '\(firestoreEmulator)'")
            }
            return url
        }
        let text = firestoreURL ?? ""
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("--firestore-url takes an http(s) URL, not '\(text)'")
        }
        return url
    }

    /// The live-documents settings, files resolved against `directory`; `nil` when off.
    func settings(relativeTo directory: URL) throws -> LiveDocumentSettings? {
        guard isEnabled, let project = firestoreProject else { return nil }
        let credentials: LiveDocumentSettings.Credentials = firestoreCredentials.map {
            .serviceAccount(URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL)
        } ?? .emulatorOwner
        return LiveDocumentSettings(
            endpoint: try endpoint(), project: project, credentials: credentials, timeout: .milliseconds(Int(firestoreTimeout * 1000)),
            cacheTTL: .milliseconds(Int(firestoreCacheTTL * 1000)), cacheEntries: firestoreCacheEntries)
    }
}
