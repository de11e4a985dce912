import Foundation
import OrderedCollections
@testable import RegimenLanguage
@testable import RegimenSecurity
@testable import RegimenTracking
import Testing
import RegimenTestSupport

/// The Firestore and Storage policies are the source for what one write may contain; the
/// command-side checks (`regimen validate`'s per-document rules, `regimen upload-check`'s metadata
/// rules) restate them. These tests write thousands of generated documents and uploads through
/// both and require the same verdict on every one.
@Suite("Command-side checks agree with the policies")
struct TrackerPolicyAgreementTests {
    static let root = RepositoryRoot.url

    static func tracking() throws -> TrackingRules { try TrackingRules.load(root: root) }

    static func policy(_ relative: String) throws -> CompiledPolicy {
        try CompiledPolicy(try PolicyLoader.load(file: root.appendingPathComponent(relative).path))
    }

    /// SplitMix64, so every run writes the same documents.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &+ 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static let time = Timestamp(iso8601: "2026-01-05T08:00:00Z") ?? Timestamp(seconds: 0)

    /// Values near every limit of the field rules, of every type.
    static let pool: [Value] = {
        var values: [Value] = [
            .null, .bool(true), .bool(false), .timestamp(time), .list([.int(1)]), .map(["a": .int(1)]),
            .int(-1), .int(0), .int(1), .int(7), .int(8), .int(100),
            .float(-0.5), .float(0), .float(2.5), .float(7), .float(.infinity), .float(-.infinity), .float(.nan),
            .string(""), .string(" "), .string("\t \n"), .string("\u{00A0}"), .string("Push"), .string("  Push  "),
            .string(String(repeating: "x", count: 100)), .string(String(repeating: "x", count: 101)),
            .string(" " + String(repeating: "x", count: 100)), .string(String(repeating: "😀", count: 50)),
            .string(String(repeating: "😀", count: 51)), .string(String(repeating: "é", count: 100)),
            .string(String(repeating: "d", count: 500)), .string(String(repeating: "d", count: 501)),
            .string("2026-01-05T08:00:00Z"), .string("alex"), .string("mallory"), .string("Strength"), .string("time-based"),
        ]
        values += ["strength", "cardio", "bodyweight", "custom"].map(Value.string)
        return values
    }()

    /// A document of `level` the owner `alex` may write.
    static func validBase(_ level: TrackerLevel) -> [String: Value] {
        var fields: [String: Value] = ["userId": .string("alex"), "createdAt": .timestamp(time)]
        switch level {
        case .program: fields["name"] = .string("Push Pull Legs"); fields["description"] = .string("12 weeks")
        case .week: fields["order"] = .int(1); fields["name"] = .string("Week 1")
        case .workout: fields["name"] = .string("Push"); fields["dayOfWeek"] = .int(1); fields["orderIndex"] = .int(0)
        case .exercise: fields["name"] = .string("Bench"); fields["exerciseType"] = .string("strength"); fields["orderIndex"] = .int(0)
        case .set: fields["setNumber"] = .int(1); fields["reps"] = .int(8); fields["weight"] = .float(60); fields["checked"] = .bool(false)
        }
        return fields
    }

    static func path(of level: TrackerLevel) -> DocumentPath {
        var path = DocumentPath(userId: "alex")
        for current in TrackerLevel.allCases {
            path = path.appending(current, "\(current.rawValue)1")
            if current == level { break }
        }
        return path
    }

    /// `count` single-document writes: a valid document of each level in turn with up to three
    /// random edits (a field set to a value near a limit or of another type, removed, or an
    /// unknown field added).
    static func generatedWrites(count: Int, rules: TrackingRules) -> [(path: DocumentPath, document: TrackerDocument)] {
        var random = Generator(state: 16)
        var writes: [(path: DocumentPath, document: TrackerDocument)] = []
        for index in 0..<count {
            let level = TrackerLevel.allCases[index % TrackerLevel.allCases.count]
            let names = (rules.validation.levels[level]?.fields.keys.sorted() ?? []) + ["colour"]
            var fields = validBase(level)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                guard let name = names.randomElement(using: &random), let value = pool.randomElement(using: &random) else { continue }
                if Bool.random(using: &random), Int.random(in: 0..<4, using: &random) == 0 {
                    fields[name] = nil
                } else {
                    fields[name] = value
                }
            }
            writes.append((path(of: level), TrackerDocument(level: level, id: "\(level.rawValue)1", fields: fields)))
        }
        return writes
    }

    @Test("validate and the corrected Firestore policy give the same verdict on 6,000 single-document writes by the owner")
    func documentsAgree() throws {
        let rules = try Self.tracking()
        let validator = TreeValidator(policy: rules.validation)
        let policy = try Self.policy("rules/security/workout-tracker/corrected.rules")
        var disagreements: [String] = []
        var allowed = 0
        let writes = Self.generatedWrites(count: 6_000, rules: rules)
        for (path, document) in writes {
            let errors = validator.documentViolations(document, at: path).filter { $0.severity == .error }
            var data = OrderedDictionary<String, Value>()
            for key in document.fields.keys.sorted() { data[key] = document.fields[key] }
            let request = SecurityRequest(auth: AuthContext(uid: "alex"),
                                          operation: .create(RequestPath(path.description, service: .firestore), WriteData(data)),
                                          time: Self.time)
            let allows = policy.decide(request, store: DocumentStore()).allowed
            if allows { allowed += 1 }
            if allows != errors.isEmpty, disagreements.count < 10 {
                disagreements.append("\(path): \(Value.map(data)) — policy \(allows ? "allows" : "denies"), validate: \(errors.map(\.message))")
            }
        }
        #expect(disagreements == [])
        // Both verdicts occur often, so the agreement is not an agreement on one answer.
        #expect(allowed > writes.count / 5 && allowed < writes.count * 4 / 5, "allowed \(allowed) of \(writes.count)")
    }

    @Test("upload-check's metadata rules and the Storage rule give the same verdict on 6,000 uploads")
    func uploadsAgree() throws {
        let upload = try Self.tracking().progress.upload
        let policy = try Self.policy("rules/security/trainer-student/storage.rules")
        var random = Generator(state: 17)
        let types = ["application/pdf", "application/PDF", "Application/pdf", "application/pdf ", "image/png", "", "application/x-pdf",
                     "application/octet-stream", "text/plain"]
        let sizes = [0, 1, 2, 5, 1_024, 2_400_000, 10_485_759, 10_485_760, 10_485_761, 20_000_000]
        var disagreements: [String] = []
        var allowed = 0
        let uploads = 6_000
        for _ in 0..<uploads {
            let size = Bool.random(using: &random) ? (sizes.randomElement(using: &random) ?? 0) : Int.random(in: 0...12_000_000, using: &random)
            let contentType = Int.random(in: 0..<3, using: &random) == 0 ? (types.randomElement(using: &random) ?? "") : "application/pdf"
            let problems = upload.metadataProblems(contentType: contentType, size: size)
            let request = SecurityRequest(
                auth: AuthContext(uid: "t1"),
                operation: .upload(RequestPath("workout-pdfs/t1/w1/workout.pdf", service: .storage),
                                   StorageUpload(size: Int64(size), contentType: contentType, metadata: ["studentId": .string("s1")])),
                time: Self.time)
            let allows = policy.decide(request, store: DocumentStore()).allowed
            if allows { allowed += 1 }
            if allows != problems.isEmpty, disagreements.count < 10 {
                disagreements.append("size \(size), type '\(contentType)': rule \(allows ? "allows" : "denies"), upload-check: \(problems)")
            }
        }
        #expect(disagreements == [])
        #expect(allowed > uploads / 5 && allowed < uploads * 4 / 5, "allowed \(allowed) of \(uploads)")
    }

    @Test("the reported disagreements are settled: time-based, blank names, application/PDF, empty PDFs, a foreign userId")
    func reportedCases() throws {
        let rules = try Self.tracking()
        let validator = TreeValidator(policy: rules.validation)
        func errors(_ level: TrackerLevel, _ edit: (inout [String: Value]) -> Void) -> [String] {
            var fields = Self.validBase(level)
            edit(&fields)
            let document = TrackerDocument(level: level, id: "\(level.rawValue)1", fields: fields)
            return validator.documentViolations(document, at: Self.path(of: level)).filter { $0.severity == .error }.map(\.message)
        }
        #expect(errors(.exercise) { $0["exerciseType"] = .string("time-based") }
            == ["'exerciseType' must be one of strength, cardio, bodyweight, custom, not 'time-based'"])
        #expect(errors(.program) { $0["name"] = .string("   ") } == ["'name' must not be empty"])
        #expect(errors(.program) { $0["userId"] = .string("mallory") }
            == ["'userId' must be the owner's id 'alex' (the user of the path), not 'mallory'"])
        #expect(errors(.program) { $0["userId"] = nil } == ["'userId' is required"])
        let upload = rules.progress.upload
        #expect(upload.metadataProblems(contentType: "application/PDF", size: 2_048).count == 1)
        #expect(upload.metadataProblems(contentType: "application/pdf", size: 0) == ["the file is empty"])
    }
}
