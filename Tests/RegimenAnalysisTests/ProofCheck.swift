import Foundation
import OrderedCollections
@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import RegimenTestSupport

/// No false proofs: a pair of policies proved equivalent (or one proved to imply the other) on
/// a set of request shapes decides every concrete request of those shapes accordingly. The
/// requests are the shipped cases, fresh random variations of them (auth, path, data), and,
/// when `REGIMEN_MUTANT_REQUESTS` names a folder, the emulator differential's generated request
/// files (`scripts/analysis-mutants.sh` writes them with `differential.py`'s generator).
struct ProofCheck {
    /// A concrete request with the documents that exist for it.
    struct Probe {
        var request: SecurityRequest
        var store: DocumentStore
        var name: String
    }

    var shapes: [RequestShape]

    /// Whether the analysis's claim is about `decision`'s request: a method it analyses on a
    /// path that is an instance of one of the shapes (a recursive wildcard unrolled only so far).
    func covers(_ decision: Decision, _ request: SecurityRequest) -> Bool {
        guard let method = decision.method?.rawValue else { return false }
        let segments = Array(request.operation.path.segments.dropFirst(3))
        return shapes.contains { shape in
            shape.method.rawValue == method && shape.segments.count == segments.count
                && zip(shape.segments, segments).allSatisfy { shapeSegment, segment in
                    if case .literal(let s) = shapeSegment { return s == segment }
                    return true
                }
        }
    }

    /// The probes that break the claim: `b` allows where `a` denies (when `bImpliesA`) or `a`
    /// allows where `b` denies (when `aImpliesB`). Also returns how many probes were covered.
    func violations(_ a: CompiledPolicy, _ b: CompiledPolicy, aImpliesB: Bool, bImpliesA: Bool, _ probes: [Probe]) -> (violations: [String], covered: Int) {
        var out: [String] = []
        var covered = 0
        for probe in probes {
            let x = a.decide(probe.request, store: probe.store)
            guard covers(x, probe.request) else { continue }
            covered += 1
            let y = b.decide(probe.request, store: probe.store).allowed
            if (aImpliesB && x.allowed && !y) || (bImpliesA && y && !x.allowed) { out.append(probe.name) }
        }
        return (out, covered)
    }

    /// The shipped cases of `suite`, each with `variations` random variations.
    static func probes(_ suite: SecurityTestSuite, variations: Int, _ generator: inout SeededGenerator) -> [Probe] {
        let identities: [AuthContext?] = [
            nil, AuthContext(uid: "alice"), AuthContext(uid: "bob"), AuthContext(uid: "support", token: ["admin": .bool(true)]),
            AuthContext(uid: "alice", token: ["role": .string("trainer"), "gymId": .string("g1")]),
        ]
        let values: [Value] = [.null, .int(0), .int(1), .int(-1), .int(101), .float(1.5), .string(""), .string("alice"), .string("x"), .bool(true), .bool(false),
                               .timestamp(SecurityTestSuite.defaultTime), .map([:]), .list([])]
        let ids = ["alice", "bob", "x", "2024-01-01", "g1"]
        var out: [Probe] = []
        for testCase in suite.cases {
            var store = suite.documents
            for (path, data) in testCase.documents { store[path] = data }
            out.append(Probe(request: testCase.request, store: store, name: testCase.name))
            for n in 0..<variations {
                var request = testCase.request
                if Bool.random(using: &generator) { request.auth = identities.randomElement(using: &generator) ?? nil }
                var segments = request.operation.path.segments
                if segments.count > 4, Int.random(in: 0..<3, using: &generator) == 0 {
                    // A document id (odd positions below the service root) replaced.
                    let positions = Array(stride(from: 4, to: segments.count, by: 2))
                    if let i = positions.randomElement(using: &generator) { segments[i] = ids.randomElement(using: &generator) ?? "x" }
                }
                let path = RequestPath(segments: segments)
                func mutated(_ data: WriteData) -> WriteData {
                    var fields = data.fields
                    let keys = Array(fields.keys)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: if let k = keys.randomElement(using: &generator) { fields.removeValue(forKey: k) }
                    case 1: if let k = keys.randomElement(using: &generator) { fields[k] = .value(values.randomElement(using: &generator) ?? .null) }
                    case 2: fields[["extra", "role", "trainerId", "userId"].randomElement(using: &generator) ?? "extra"] = .value(values.randomElement(using: &generator) ?? .null)
                    default: break
                    }
                    return WriteData(fields: fields)
                }
                switch request.operation {
                case .get: request.operation = .get(path)
                case .delete: request.operation = .delete(path)
                case .create(_, let data): request.operation = .create(path, mutated(data))
                case .update(_, let data): request.operation = .update(path, mutated(data))
                case .set(_, let data): request.operation = .set(path, mutated(data))
                default: continue
                }
                out.append(Probe(request: request, store: store, name: "\(testCase.name) (variation \(n + 1))"))
            }
        }
        return out
    }

    /// The differential's generated request files in `folder`, by the absolute path of the
    /// policy each names.
    static func generatedProbes(in folder: String) throws -> [String: [Probe]] {
        var out: [String: [Probe]] = [:]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tests.yaml") }.sorted()
        for file in files {
            let suite = try SecurityTestSuite.load(file: "\(folder)/\(file)")
            var generator = SeededGenerator(seed: 0)
            out[URL(fileURLWithPath: suite.policy.origin.file).standardizedFileURL.path, default: []] += probes(suite, variations: 0, &generator)
        }
        return out
    }
}
