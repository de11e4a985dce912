public import RegimenLanguage
import OrderedCollections

extension DuplicationResult {
    /// `{audit, idMap: [{old, new}], batches: [[write]], tree, repairs}`: what `regimen duplicate
    /// --format json` prints.
    public var value: Value {
        Value.map([
            "audit": audit.value,
            "idMap": .list(idMap.map { Value.map(["old": .string($0.old), "new": .string($0.new)]) }),
            "batches": .list(batches.map { batch in Value.list(batch.map(\.value)) }),
            "tree": tree.value,
            "repairs": .list(repairs.map(Value.string)),
        ])
    }
}
