import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// The planner page at `/` and its assets: served with their content types, a strict
/// Content-Security-Policy, hashed names that can be cached forever, and nothing from elsewhere.
@Suite struct WebPageTests {
    typealias Support = ServiceTestSupport

    /// `/assets/…` references of a page, in order.
    static func assetReferences(_ page: String) -> [String] {
        page.components(separatedBy: "\"/assets/").dropFirst().map { "/assets/" + $0.prefix { $0 != "\"" } }
    }

    static func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined() }

    @Test func thePageIsHTMLUnderAStrictPolicyAndIsRevalidated() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                let policy = try #require(response.headers[.contentSecurityPolicy])
                for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
                    #expect(policy.contains(directive), "\(directive)")
                }
                #expect(!policy.contains("unsafe"), "no unsafe-inline or unsafe-eval: \(policy)")
                let page = Support.text(response)
                // No inline script or style: the policy would block it, so the page must not need it.
                #expect(!page.contains("<script>") && !page.contains("<style"), "inline script or style block")
                #expect(page.range(of: #"<script(?![^>]*\bsrc=)"#, options: .regularExpression) == nil, "a script without src")
                #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "an inline event handler")
                #expect(page.range(of: #"\sstyle="#, options: .regularExpression) == nil, "an inline style attribute")
                // Works offline: nothing is loaded from another origin.
                #expect(page.range(of: #"(src|href)="(https?:)?//"#, options: .regularExpression) == nil, "an absolute URL")
                #expect(response.headers[.eTag] == "\"\(Self.hex(SHA256.hash(data: Data(page.utf8))))\"")
                let references = Self.assetReferences(page)
                #expect(references.count >= 4, "\(references)")
            }
        }
    }

    @Test func everyAssetThePageNamesIsServedWithItsTypeUnderItsContentHash() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get) { Support.text($0) }
            let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"]
            for reference in Self.assetReferences(page) {
                try await client.execute(uri: reference, method: .get) { response in
                    #expect(response.status == .ok, "\(reference)")
                    let ext = String(reference.split(separator: ".").last ?? "")
                    #expect(response.headers[.contentType] == types[ext], "\(reference)")
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(reference)")
                    #expect(response.headers[.contentSecurityPolicy] != nil)
                    // The name carries the first 12 hex digits of the body's SHA-256: a changed
                    // file is a new name, so a cached copy is never stale.
                    let digest = Self.hex(SHA256.hash(data: Data(response.body.readableBytesView)))
                    let nameHash = reference.split(separator: ".").dropLast().last.map(String.init) ?? ""
                    #expect(nameHash == String(digest.prefix(12)), "\(reference)")
                    #expect(response.headers[.eTag] == "\"\(digest)\"")
                }
            }
        }
    }

    @Test func aCurrentCopyIsAnswered304AndAnUnknownAsset404() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let (etag, page) = try await client.execute(uri: "/", method: .get) { ($0.headers[.eTag] ?? "", Support.text($0)) }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"stale\""]) { response in
                #expect(response.status == .ok)
            }
            let script = try #require(Self.assetReferences(page).first { $0.hasSuffix(".js") })
            let stale = script.replacingOccurrences(of: #"\.[0-9a-f]{12}\.js$"#, with: ".000000000000.js", options: .regularExpression)
            for missing in [stale, "/assets/app.js", "/assets/..%2FPackage.swift", "/assets/"] {
                try await client.execute(uri: missing, method: .get) { response in
                    #expect(response.status == .notFound, "\(missing)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(missing)")
                }
            }
        }
    }

    /// The values the page offers for a choice field: a select's options or a checkbox group's.
    static func offered(_ page: String, _ field: String) -> Set<String> {
        let unescape = { (text: Substring) in text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">") }
        if let start = page.range(of: "<select id=\"\(field)\""), let end = page.range(of: "</select>", range: start.upperBound..<page.endIndex) {
            let options = page[start.upperBound..<end.lowerBound].components(separatedBy: "<option value=\"").dropFirst()
            return Set(options.map { unescape($0.prefix { $0 != "\"" }) }.filter { !$0.isEmpty })
        }
        let boxes = page.components(separatedBy: "name=\"\(field)\" value=\"").dropFirst()
        return Set(boxes.map { unescape($0.prefix { $0 != "\"" }) })
    }

    /// A profile with `field` set to `value` (a list for list fields), read by the engine.
    static func profile(_ engine: RegimenEngine, _ field: String, _ value: String) throws(RegimenError) -> Profile {
        let json = field == "exclusions" || field == "injuries" ? "[\"\(value)\"]" : "\"\(value)\""
        return try engine.profile(from: #"{"sex": "male", "schedule_days": 3, "\#(field)": \#(json)}"#)
    }

    /// Every spelling the rules accept for `field`, as the profile error lists them.
    static func accepted(_ engine: RegimenEngine, _ field: String) throws -> [String] {
        do {
            _ = try profile(engine, field, "no such value")
            Issue.record("\(field): a made-up value was accepted")
            return []
        } catch {
            guard error.code == .profile, let allowed = error.profileProblems.first?.allowed, allowed.hasPrefix("one of ") else {
                Issue.record("\(field): \(error)")
                return []
            }
            let list = allowed.dropFirst("one of ".count).prefix { $0 != "(" }
            return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    @Test func theFormOffersExactlyTheCanonicalValuesTheLoadedRulesAccept() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        let page = try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { Support.text($0) }
        }
        let canonical: [String: @Sendable (Profile) -> String?] = [
            "goal": { $0.goal }, "age_range": { $0.ageRange }, "equipment": { $0.equipment?.rawValue },
            "experience": { $0.experience?.rawValue }, "budget_tier": { $0.budgetTier?.rawValue },
            "exclusions": { $0.exclusions.first }, "injuries": { $0.injuries.first?.rawValue },
        ]
        for (field, read) in canonical {
            // Aliases (a goal's `cut`, an age range's en dash) read as their canonical value:
            // the page offers each canonical value once, and nothing the rules would refuse.
            let expected = Set(try Self.accepted(engine, field).compactMap { read(try Self.profile(engine, field, $0)) })
            #expect(!expected.isEmpty, "\(field)")
            #expect(Self.offered(page, field) == expected, "\(field): the page offers \(Self.offered(page, field).sorted()), the rules accept \(expected.sorted())")
        }
    }

    @Test func assetsLoadFromAFolderWithHashedNamesAndRewrittenReferences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"<link href="/assets/a.css"><script src="/assets/b.js" defer></script>"#.utf8).write(to: folder.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: folder.appendingPathComponent("a.css"))
        try Data("1;".utf8).write(to: folder.appendingPathComponent("b.js"))
        let first = try WebAssets.load(from: folder).get()
        let page = String(decoding: first.page.body, as: UTF8.self)
        #expect(Self.assetReferences(page).sorted() == first.assets.keys.sorted().map { "/assets/\($0)" })
        // A changed file gets a new name, and the page names the new one.
        try Data("2;".utf8).write(to: folder.appendingPathComponent("b.js"))
        let second = try WebAssets.load(from: folder).get()
        #expect(Set(first.assets.keys).subtracting(second.assets.keys).count == 1)
        #expect(first.page.etag != second.page.etag)
        // A file of a kind the service has no content type for is refused, not served as bytes.
        try Data().write(to: folder.appendingPathComponent("notes.txt"))
        #expect(throws: WebAssets.LoadError.self) { try WebAssets.load(from: folder).get() }
    }

    @Test func aMissingResourceBundleIsReportedByNameNotATrap() {
        let lonely = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-no-bundle-\(UUID().uuidString)/bin/regimen")
        guard case .failure(let error) = WebAssets.load(executable: lonely) else {
            Issue.record("a missing bundle must be reported")
            return
        }
        #expect(error.description.contains("Regimen_RegimenService.resources"))
    }
}
