import Crypto
import Foundation
import Logging
import Synchronization

/// What a caller's API key lets it do.
enum CallerScope: String, Sendable, CaseIterable, Hashable {
    /// The planner and tracker routes (`/v1/plans`, `/v1/tracker/*`, …) and `/v1/rules`.
    case plans
    /// `POST /v1/policies/{name}:authorize` and `GET /v1/policies`.
    case authorize
    /// A body's `auth` on authorize in identity mode `trusted-caller`: the caller asks on a
    /// user's behalf and is trusted to name them.
    case authorizeClaims = "authorize:claims"
    /// `POST /v1/policies/{name}:test`.
    case test
    /// A body's own `documents` on authorize (laid under the served documents).
    case documents
    /// `/v1/admin/*` on the private listener, in place of the admin token: each operator's own
    /// key, named in the log and revoked in the key file without a restart.
    case admin
}

/// A caller, identified by its API key.
struct Caller: Sendable, Hashable {
    /// The key's id in the key file: logged and counted, never the key itself.
    package var id: String
    var scopes: Set<CallerScope>
    /// The key's own rate limit, if any.
    var rate: RateLimit?
}

/// A token bucket's settings: `perSecond` requests a second on average, `burst` at once.
package struct RateLimit: Sendable, Hashable {
    var perSecond: Double
    var burst: Double

    package init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }
}

/// The callers' API keys, from a JSON file holding only each key's SHA-256:
///
/// ```json
/// {"keys": [{"id": "checkout", "sha256": "<64 hex digits>", "scopes": ["authorize"],
///            "rate": {"per_second": 20, "burst": 40}}]}
/// ```
///
/// The file is looked at again (its size and modification time) at most once a second as keys
/// are presented, and read again when it changed: keys are added and revoked without a
/// restart. A file that no longer reads keeps the keys that did, and says so in the log once.
final class CallerKeys: Sendable {
    let file: URL
    /// How often the file is looked at for a change.
    let recheckInterval: Duration
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var callers: [String: Caller]
        var stamp: FileStamp
        var checkedAt: ContinuousClock.Instant
    }

    private struct FileStamp: Equatable {
        var size: Int
        var modified: Date
    }

    /// Reads the key file.
    /// - Throws: ``AccessConfigurationError`` naming the file and the entry at fault.
    init(file: URL, logger: Logger, recheckInterval: Duration = .seconds(1)) throws(AccessConfigurationError) {
        self.file = file
        self.recheckInterval = recheckInterval
        self.logger = logger
        let stamp = Self.stamp(file)
        state = Mutex(State(callers: try Self.read(file), stamp: stamp ?? FileStamp(size: -1, modified: .distantPast), checkedAt: .now))
    }

    private static func stamp(_ file: URL) -> FileStamp? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return FileStamp(size: size, modified: modified)
    }

    /// The callers of `file` by the hex SHA-256 of their key.
    static func read(_ file: URL) throws(AccessConfigurationError) -> [String: Caller] {
        guard let data = try? Data(contentsOf: file), data.count <= 1 << 20 else {
            throw AccessConfigurationError("\(file.path): cannot be read (or is larger than 1 MiB)")
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let entries = root["keys"] as? [Any] else {
            throw AccessConfigurationError("\(file.path): not {\"keys\": [{\"id\", \"sha256\", \"scopes\"}, …]}")
        }
        var callers: [String: Caller] = [:]
        var ids: Set<String> = []
        for (index, entry) in entries.enumerated() {
            let place = "\(file.path): keys[\(index)]"
            guard let entry = entry as? [String: Any] else { throw AccessConfigurationError("\(place) is not an object") }
            let unknown = Set(entry.keys).subtracting(["id", "sha256", "subject", "scopes", "rate"])
            guard unknown.isEmpty else { throw AccessConfigurationError("\(place): unknown key '\(unknown.sorted()[0])'") }
            guard let id = entry["id"] as? String, (1...64).contains(id.utf8.count),
                  id.utf8.allSatisfy({ byte in (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || [0x2D, 0x2E, 0x5F, 0x3A].contains(byte) })
            else { throw AccessConfigurationError("\(place).id must be 1–64 letters, digits, '-', '.', '_' or ':'") }
            guard ids.insert(id).inserted else { throw AccessConfigurationError("\(place).id '\(id)' appears twice") }
            // A caller is an API key (its SHA-256) or a client certificate's subject (mutual TLS).
            let digest: String
            if let subject = entry["subject"] {
                guard entry["sha256"] == nil else { throw AccessConfigurationError("\(place): name either sha256 (an API key) or subject (a client certificate), not both") }
                guard let subject = subject as? String, let normalized = Self.normalizedSubject(subject) else {
                    throw AccessConfigurationError("\(place).subject must be a certificate subject such as 'CN=backend,O=Example'")
                }
                digest = Self.subjectKey(normalized)
            } else {
                guard let hex = (entry["sha256"] as? String)?.lowercased(), hex.utf8.count == 64, hex.allSatisfy(\.isHexDigit) else {
                    throw AccessConfigurationError("\(place).sha256 must be the key's SHA-256 in 64 hex digits (printf %s KEY | sha256sum)")
                }
                digest = hex
            }
            guard callers[digest] == nil else { throw AccessConfigurationError("\(place): the same key or subject as another entry") }
            guard let names = entry["scopes"] as? [String] else { throw AccessConfigurationError("\(place).scopes must be a list of scopes") }
            var scopes: Set<CallerScope> = []
            for name in names {
                guard let scope = CallerScope(rawValue: name) else {
                    throw AccessConfigurationError("\(place).scopes: '\(name)' is not one of \(CallerScope.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                scopes.insert(scope)
            }
            var rate: RateLimit?
            if let limit = entry["rate"] {
                guard let limit = limit as? [String: Any], let perSecond = (limit["per_second"] as? NSNumber)?.doubleValue,
                      let burst = (limit["burst"] as? NSNumber)?.doubleValue, perSecond > 0, perSecond.isFinite, burst >= 1, burst.isFinite
                else { throw AccessConfigurationError("\(place).rate must be {\"per_second\": > 0, \"burst\": ≥ 1}") }
                rate = RateLimit(perSecond: perSecond, burst: burst)
            }
            callers[digest] = Caller(id: id, scopes: scopes, rate: rate)
        }
        return callers
    }

    /// The caller whose entry names the client certificate subject `subject` (as
    /// ``ClientCertificate/subject(of:)`` reads it), or `nil`.
    func caller(certificateSubject subject: String) -> Caller? {
        guard let normalized = Self.normalizedSubject(subject) else { return nil }
        refreshIfChanged()
        return state.withLock { $0.callers[Self.subjectKey(normalized)] }
    }

    /// Where a subject's caller is kept beside the keys' digests (which are 64 hex digits).
    static func subjectKey(_ normalized: String) -> String { "subject:" + normalized }

    /// A subject's `TYPE=value` parts, in order, without spaces around the commas and with the
    /// attribute types upper-cased (`cn=backend, O=Example` → `CN=backend,O=Example`); `nil`
    /// for text that is not such a list.
    static func normalizedSubject(_ text: String) -> String? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, text.utf8.count <= 1024 else { return nil }
        var normalized: [String] = []
        for part in parts {
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else { return nil }
            let type = part[..<equals].trimmingCharacters(in: .whitespaces).uppercased()
            let value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { return nil }
            normalized.append("\(type)=\(value)")
        }
        return normalized.joined(separator: ",")
    }

    /// The caller holding `key`, or `nil` for a key no entry holds.
    func caller(presenting key: String) -> Caller? {
        let digest = SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        refreshIfChanged()
        return state.withLock { $0.callers[digest] }
    }

    /// Reads the file again when its size or modification time changed since the last look
    /// (at most one look a second).
    private func refreshIfChanged() {
        let now = ContinuousClock.now
        let due = state.withLock { state in
            guard now - state.checkedAt >= recheckInterval else { return false }
            state.checkedAt = now
            return true
        }
        guard due, let stamp = Self.stamp(file), stamp != state.withLock({ $0.stamp }) else { return }
        do {
            let callers = try Self.read(file)
            state.withLock { state in
                state.callers = callers
                state.stamp = stamp
            }
            logger.notice("caller keys reloaded", metadata: ["file": "\(file.lastPathComponent)", "keys": "\(callers.count)"])
        } catch {
            state.withLock { $0.stamp = stamp }
            logger.error("caller keys not reloaded; the last good keys stay", metadata: ["problem": "\(error.description)"])
        }
    }
}
