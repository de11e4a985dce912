import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches a JSON Web Key Set over HTTP(S) for ``IDTokenVerifier`` (`--id-token-jwks-url`).
enum KeySetFetcher {
    /// The largest key set read (Google's is about 2 KiB).
    static let maximumBytes = 1 << 20
    /// How long a key set stays fresh when its answer names no `max-age`.
    static let defaultLifetime: Duration = .seconds(3600)

    /// The key set at `url`, fresh for the answer's `Cache-Control: max-age`, fetched within `timeout`.
    /// - Throws: ``AccessConfigurationError`` for a failed fetch or a key set that does not read.
    static func fetch(_ url: URL, timeout: Duration, client: HTTPClient = .shared) async throws(AccessConfigurationError) -> IDTokenVerifier.KeySet {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let data: Data
        let lifetime: Duration
        do {
            let response = try await client.execute(request, timeout: timeAmount(timeout))
            let body = try await response.body.collect(upTo: maximumBytes)
            guard response.status == .ok else { throw AccessConfigurationError("\(url): answered \(response.status.code)") }
            data = Data(body.readableBytesView)
            lifetime = maxAge(response.headers["Cache-Control"].joined(separator: ",")) ?? defaultLifetime
        } catch let error as AccessConfigurationError {
            throw error
        } catch {
            throw AccessConfigurationError("\(url): cannot be fetched (\(error))")
        }
        return try IDTokenVerifier.parse(data, source: url.absoluteString, staleAt: .now + lifetime)
    }

    /// `max-age` of a `Cache-Control` value, at most a day (a key set must not outlive rotation).
    static func maxAge(_ cacheControl: String) -> Duration? {
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if parts.count == 2, parts[0] == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return .seconds(min(seconds, 86_400))
            }
        }
        return nil
    }

    /// `duration` as NIO's time amount, saturating rather than overflowing for absurd settings.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .zero }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .nanoseconds(.max) }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? .nanoseconds(.max) : .nanoseconds(total)
    }
}
