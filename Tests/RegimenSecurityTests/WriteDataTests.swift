import OrderedCollections
import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

@Suite("Write data: plain values shared, sentinels resolved, the update fast path")
struct WriteDataTests {
    static let time = SecurityTestSuite.defaultTime

    /// Keys and values in order (a map value's `==` ignores order, the merge must not).
    static func same(_ a: OrderedDictionary<String, Value>, _ b: OrderedDictionary<String, Value>) -> Bool {
        a.keys.elements == b.keys.elements && zip(a.values, b.values).allSatisfy { $0 == $1 }
    }

    static let stored: [OrderedDictionary<String, Value>] = {
        var wide = OrderedDictionary<String, Value>()
        // More than 15 keys: the map then carries a hash table.
        for i in 0..<20 { wide["f\(i)"] = .int(Int64(i)) }
        return [
            [:],
            ["setNumber": .int(1), "reps": .int(8), "weight": .float(60.5), "checked": .bool(false), "userId": .string("alice")],
            ["a": .map(["b": .int(1)]), "c": .list([.int(1)])],
            wide,
        ]
    }()

    static let changes: [OrderedDictionary<String, Value>] = [
        [:],
        ["reps": .int(10), "setNumber": .int(3)],
        ["setNumber": .int(4), "duration": .int(600), "distance": .float(5000), "userId": .string("alice")],
        ["notes": .string("easy"), "reps": .int(12)],
        ["f3": .null, "f19": .string("x"), "f20": .int(20), "zz": .bool(true)],
        ["a": .int(2), "new": .map(["x": .int(1)])],
    ]

    @Test("the top-level merge gives what the general merge gives, keys in the same order")
    func topLevelMergeMatchesGeneral() {
        for stored in Self.stored {
            for changes in Self.changes {
                let fast = PreparedRequest.mergeTopLevel(stored, changes)
                let general = PreparedRequest.merge(stored, WriteValue.fields(changes), time: Self.time)
                #expect(fast.map { Self.same($0, general) } == true, "\(stored) ← \(changes)")
                #expect(Self.same(PreparedRequest.merge(stored, WriteData(changes), time: Self.time), general))
            }
        }
    }

    @Test("field paths and empty keys leave the update to the general merge")
    func fieldPathsTakeTheGeneralMerge() {
        let stored: OrderedDictionary<String, Value> = ["a": .map(["b": .int(1), "c": .int(2)])]
        #expect(PreparedRequest.mergeTopLevel(stored, ["a.b": .int(5)]) == nil)
        #expect(PreparedRequest.mergeTopLevel(stored, ["": .int(5)]) == nil)
        let merged = PreparedRequest.merge(stored, WriteData(["a.b": .int(5)]), time: Self.time)
        #expect(Self.same(merged, ["a": .map(["b": .int(5), "c": .int(2)])]))
    }

    @Test("data with sentinels keeps them; plain data converts once and resolves to itself")
    func sentinelsAndPlainData() {
        let withSentinel: OrderedDictionary<String, WriteValue> = [
            "a": .value(.int(1)), "at": .map(["when": .serverTimestamp]), "l": .list([.value(.int(1))]), "gone": .deleteField,
        ]
        let data = WriteData(fields: withSentinel)
        #expect(data.plainFields == nil)
        #expect(data.fields == withSentinel)
        #expect(data.resolved(at: Self.time) == .map(PreparedRequest.resolve(withSentinel, time: Self.time)))

        let plain: OrderedDictionary<String, WriteValue> = ["a": .value(.int(1)), "m": .map(["x": .list([.value(.string("y"))])])]
        let converted = WriteData(fields: plain)
        #expect(converted.plainFields.map { Self.same($0, PreparedRequest.resolve(plain, time: Self.time)) } == true)
        #expect(converted == WriteData(["a": .int(1), "m": .map(["x": .list([.string("y")])])]))
        #expect(converted.fields.keys.elements == ["a", "m"])
    }
}
