import Foundation
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Synchronization
import Testing

/// Issue 35 item 4: live documents decided in rounds (``LiveDocumentDecider``) against an
/// in-process reader; the REST reader itself is tested in ``FirestoreRESTReaderTests`` and
/// against Google's emulator by `scripts/emulator/live_documents.py`.
@Suite struct LiveDocumentsTests {
    typealias Support = ServiceTestSupport

    /// A reader answering from a store, recording every call; or failing every call.
    final class StoreReader: DocumentReading {
        let store: DocumentStore
        let failure: String?
        let calls = Mutex<[[String]]>([])

        init(_ store: DocumentStore, failure: String? = nil) {
            self.store = store
            self.failure = failure
        }

        func read(_ paths: [String]) async throws(LiveDocumentError) -> [String: OrderedDictionary<String, Value>?] {
            calls.withLock { $0.append(paths) }
            if let failure { throw LiveDocumentError(failure) }
            var result: [String: OrderedDictionary<String, Value>?] = [:]
            for path in paths { result[path] = .some(store.documents[path]) }
            return result
        }
    }

    /// A chain of reads where each path comes from the document read before: only rounds reach it.
    static let chainRules = """
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
        function room() { return get(/databases/$(database)/documents/members/$(request.auth.uid)).data.room; }
        function building() { return get(/databases/$(database)/documents/rooms/$(room())).data.building; }
        match /notes/{note} {
          allow read: if request.auth != null
            && get(/databases/$(database)/documents/buildings/$(building())).data.open == true
            && resource.data.room == room();
          allow create: if request.auth != null && exists(/databases/$(database)/documents/rooms/$(request.resource.data.room))
            && getAfter(/databases/$(database)/documents/notes/$(note)).data.room == room();
        }
      }
    }
    """

    static let chainDocuments = """
    members/ann: {room: r1}
    members/ben: {room: r2}
    members/cy: {room: r9}
    rooms/r1: {building: b1}
    rooms/r2: {building: b2}
    buildings/b1: {open: true}
    buildings/b2: {open: false}
    notes/n1: {room: r1}
    notes/n2: {room: r2}
    """

    static let trainerDocuments = """
    workouts/w1: {trainerId: t1, studentId: s1, title: A, status: active}
    workouts/w2: {trainerId: t2, studentId: s2, title: B, status: active}
    workout_progress/p1: {workoutId: w1, studentId: s1, completedDays: [1, 2], totalDays: 12}
    workout_progress/p2: {workoutId: w9, studentId: s2, completedDays: [], totalDays: 4}
    workout_feedback/f1: {workoutId: w1, studentId: s1, trainerId: t1, message: hi, difficulty: too_hard}
    """

    static let coachDocuments = """
    users/m1: {role: member, gymId: g1, trainerId: t1}
    users/m2: {role: member, gymId: g2}
    users/t1: {role: trainer, gymId: g1}
    users/a1: {role: admin, gymId: g1}
    gyms/g1: {name: One, ownerId: o1}
    """

    struct Subject {
        var policy: Policy
        var documents: DocumentStore
        var paths: [String]
        var uids: [String]
    }

    static func subject(_ name: String, rules: String? = nil, documents: String, uids: [String], folder: ScratchFolder) throws -> Subject {
        let engine = try RegimenEngine(rules: Support.root.appendingPathComponent("rules"))
        let policy: Policy
        if let rules {
            try folder.write(rules, to: "policies/\(name).rules")
            policy = try engine.policy(named: name, under: folder.url.appendingPathComponent("policies"))
        } else {
            policy = try engine.policy(named: name)
        }
        try folder.write(documents, to: "\(name.replacingOccurrences(of: "/", with: "-")).documents.yaml")
        let store = try policy.documents(file: folder.url.appendingPathComponent("\(name.replacingOccurrences(of: "/", with: "-")).documents.yaml"))
        let paths = store.documents.keys.map { String($0.dropFirst("/databases/(default)/documents/".count)) }.sorted()
        return Subject(policy: policy, documents: store, paths: paths, uids: uids)
    }

    /// One generated authorize request as JSON: an operation on a stored or new path of a
    /// stored collection, by a user named in the documents (or signed out), with data copied
    /// from the documents' values.
    static func request(_ subject: Subject, _ generator: inout SeededGenerator) -> String {
        var path = subject.paths.randomElement(using: &generator) ?? "a/b"
        if Int.random(in: 0..<4, using: &generator) == 0 { path = path.split(separator: "/").dropLast().joined(separator: "/") + "/new" }
        let uid = (subject.uids + ["nobody"]).randomElement(using: &generator) ?? "nobody"
        let auth = Int.random(in: 0..<6, using: &generator) == 0 ? "" : #", "auth": {"uid": "\#(uid)", "token": {"role": "\#(["member", "trainer", "admin"].randomElement(using: &generator) ?? "")", "gymId": "g1"}}"#
        let values = subject.uids + ["r1", "r2", "r9", "w1", "w9", "g1"]
        // Two distinct keys (a repeated key is an unreadable body).
        let keys = ["room", "trainerId", "studentId", "workoutId", "gymId", "role"].shuffled(using: &generator)
        func field(_ index: Int) -> String {
            #""\#(keys[index])": "\#(values.randomElement(using: &generator) ?? "")""#
        }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0, 1: return #"{"get": "\#(path)"\#(auth)}"#
        case 2: return #"{"delete": "\#(path)"\#(auth)}"#
        case 3: return #"{"set": "\#(path)", "data": {\#(field(0)), \#(field(1))}\#(auth)}"#
        case 4: return #"{"update": "\#(path)", "data": {\#(field(0))}\#(auth)}"#
        default:
            let collection = path.split(separator: "/").dropLast().joined(separator: "/")
            return #"{"list": "\#(collection)", "query": {"where": [[\#(["\"room\"", "\"trainerId\"", "\"studentId\""].randomElement(using: &generator) ?? ""), "==", "\#(values.randomElement(using: &generator) ?? "")"]]}\#(auth)}"#
        }
    }

    static func summary(_ decisions: [Decision]) -> [String] { decisions.map { "\($0.allowed) \($0.path) \($0.summary)" } }

    /// For every generated body (single requests and batches, over three policies, one with a
    /// three-deep chain of dependent reads): the decisions made in rounds against a reader
    /// equal the decisions made with the same documents as files, and no body reads a path
    /// twice.
    @Test func roundsDecideAsFilesDoAndReadEachPathOnce() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let subjects = [
            try Self.subject("chain", rules: Self.chainRules, documents: Self.chainDocuments, uids: ["ann", "ben", "cy"], folder: folder),
            try Self.subject("trainer-student/firestore", documents: Self.trainerDocuments, uids: ["t1", "t2", "s1", "s2"], folder: folder),
            try Self.subject("coach-app/firestore", documents: Self.coachDocuments, uids: ["m1", "m2", "t1", "a1", "o1"], folder: folder),
        ]
        var generator = SeededGenerator(seed: 35_004)
        var allowed = 0, total = 0, maximumCalls = 0
        for subject in subjects {
            for _ in 0..<120 {
                let count = Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 2...5, using: &generator) : 1
                let requests = (0..<count).map { _ in Self.request(subject, &generator) }
                let text = count == 1 ? requests[0] : "[" + requests.joined(separator: ", ") + "]"
                let data = Data(text.utf8)
                let asFiles = subject.policy.decide(try subject.policy.requests(from: data, documents: subject.documents))
                let reader = StoreReader(subject.documents)
                let decider = LiveDocumentDecider(reader: reader, cache: LiveDocumentCache(timeToLive: .zero, capacity: 0))
                let body = try subject.policy.requests(from: data, served: DocumentStore(), layering: .under)
                let live = try await decider.decide(body, policy: subject.policy, layering: .under, explain: false)
                #expect(Self.summary(live) == Self.summary(asFiles), "\(text)")
                let calls = reader.calls.withLock { $0 }
                let paths = calls.flatMap { $0 }
                #expect(Set(paths).count == paths.count, "a path was read twice for \(text): \(calls)")
                #expect(calls.count <= LiveDocumentDecider.maximumRounds)
                maximumCalls = max(maximumCalls, calls.count)
                allowed += asFiles.filter(\.allowed).count
                total += asFiles.count
            }
        }
        // The grid reaches both answers and the chain's rounds (own document, member, room, building).
        #expect(allowed > 10 && allowed < total - 10, "\(allowed) of \(total) allowed")
        #expect(maximumCalls >= 4)
    }

    /// A reader that fails denies every decision waiting on it, with the reason, and allows nothing.
    @Test func aFailedReadDeniesWithItsReason() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let subject = try Self.subject("chain", rules: Self.chainRules, documents: Self.chainDocuments, uids: ["ann", "ben", "cy"], folder: folder)
        let data = Data(#"[{"get": "notes/n1", "auth": {"uid": "ann"}}, {"list": "notes", "query": {"where": [["room", "==", "r1"]]}, "auth": {"uid": "ann"}}]"#.utf8)
        let asFiles = subject.policy.decide(try subject.policy.requests(from: data, documents: subject.documents))
        #expect(asFiles.map(\.allowed) == [true, true])
        let decider = LiveDocumentDecider(
            reader: StoreReader(subject.documents, failure: "Firestore did not answer within 2 seconds"), cache: LiveDocumentCache(timeToLive: .seconds(60), capacity: 10))
        let live = try await decider.decide(try subject.policy.requests(from: data, served: DocumentStore(), layering: .under), policy: subject.policy, layering: .under, explain: false)
        #expect(live.map(\.allowed) == [false, false])
        #expect(live.allSatisfy { $0.summary.contains("documents could not be read (Firestore did not answer within 2 seconds)") }, "\(Self.summary(live))")
        #expect(live.map(\.path) == asFiles.map(\.path))
    }

    /// A body's own documents lie under the live ones: they fill a path the database does not
    /// hold and never replace one it does.
    @Test func bodyDocumentsLieUnderLiveOnes() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let subject = try Self.subject("chain", rules: Self.chainRules, documents: Self.chainDocuments, uids: ["ann", "ben", "cy"], folder: folder)
        let decider = LiveDocumentDecider(reader: StoreReader(subject.documents), cache: LiveDocumentCache(timeToLive: .zero, capacity: 0))
        func decide(_ text: String) async throws -> Bool {
            let body = try subject.policy.requests(from: Data(text.utf8), served: DocumentStore(), layering: .under)
            return try await decider.decide(body, policy: subject.policy, layering: .under, explain: false)[0].allowed
        }
        // cy's room r9 has no document in the database: the body may supply it, and its building.
        #expect(try await decide(#"{"get": "notes/n9", "auth": {"uid": "cy"}}"#) == false)
        #expect(try await decide(#"{"get": "notes/n9", "auth": {"uid": "cy"}, "documents": {"notes/n9": {"room": "r9"}, "rooms/r9": {"building": "b1"}}}"#))
        // ben's building b2 is closed in the database: a body saying it is open changes nothing.
        #expect(try await decide(#"{"get": "notes/n2", "auth": {"uid": "ben"}, "documents": {"buildings/b2": {"open": true}}}"#) == false)
    }

    /// The cache holds at most its capacity (the oldest read leaves first) and forgets a read
    /// once its time to live has passed; a time to live of zero holds nothing.
    @Test func theCacheIsBoundedInEntriesAndTime() {
        let start = ContinuousClock.now
        let cache = LiveDocumentCache(timeToLive: .seconds(1), capacity: 3)
        let fields: OrderedDictionary<String, Value> = ["a": .int(1)]
        let missing: OrderedDictionary<String, Value>? = nil
        cache.store(["p1": fields, "p2": missing], now: start)
        cache.store(["p3": .some(fields), "p4": .some(fields)], now: start + .milliseconds(10))
        #expect(cache.count == 3)
        let found = cache.lookUp(["p1", "p2", "p3", "p4"], now: start + .milliseconds(500))
        // One of p1 and p2 (stored together, in no set order) was pushed out; a missing document is remembered as missing.
        #expect(found.count == 3)
        #expect(found["p3"] == .some(fields) && found["p4"] == .some(fields))
        if let p2 = found["p2"] { #expect(p2 == OrderedDictionary<String, Value>?.none) }
        #expect(cache.lookUp(["p3", "p4"], now: start + .milliseconds(1_010)).isEmpty)
        let off = LiveDocumentCache(timeToLive: .zero, capacity: 100)
        off.store(["p1": .some(fields)], now: start)
        #expect(off.lookUp(["p1"], now: start).isEmpty && off.count == 0)
    }

    /// Within its time to live a cached read serves the next body without a call; a path read
    /// once per body whatever the cache holds.
    @Test func aCachedReadServesTheNextBody() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let subject = try Self.subject("chain", rules: Self.chainRules, documents: Self.chainDocuments, uids: ["ann", "ben", "cy"], folder: folder)
        let reader = StoreReader(subject.documents)
        let decider = LiveDocumentDecider(reader: reader, cache: LiveDocumentCache(timeToLive: .seconds(3_600), capacity: 100))
        let body = try subject.policy.requests(from: Data(#"{"get": "notes/n1", "auth": {"uid": "ann"}}"#.utf8), served: DocumentStore(), layering: .under)
        let first = try await decider.decide(body, policy: subject.policy, layering: .under, explain: false)
        let callsAfterFirst = reader.calls.withLock { $0.count }
        let second = try await decider.decide(body, policy: subject.policy, layering: .under, explain: false)
        #expect(first.map(\.allowed) == [true] && second.map(\.allowed) == [true])
        #expect(callsAfterFirst == 4)
        #expect(reader.calls.withLock { $0.count } == callsAfterFirst)
    }
}
