/// Fields of a map variable that a host can supply one by one, in slots of their own, instead of
/// building the map.
///
/// A security decision's `request` is a fresh map per request whose fields already exist as
/// separate values (the caller's auth, the written data); building it and freeing it again was a
/// fifth of a decision. With `request` projected, `request.auth` compiles to a read of its own
/// slot, and the map is built only for the requests (or rules) that need it whole.
///
/// The projections of an environment add, after its variables, one *presence* slot
/// (``ExpressionEnvironment/projectionPresenceSlot``) and one slot per field
/// (``ExpressionEnvironment/slot(of:)`` finds `"request.auth"`). The presence slot holds `.int`
/// bits, the OR of ``ExpressionEnvironment/projectionBits(_:present:)`` for each projected
/// variable, and decides how `variable.field` is read:
/// - variable projected: a present field's value is in its slot; an absent field is the error a
///   map without the key gives. The variable's own slot is not read.
/// - variable not projected (no bits for it, or no `.int` at all, the default): `variable.field`
///   reads the variable's map as usual.
///
/// A projected field can itself be projected (`request.resource` with `data`, `id`,
/// `__name__`). Uses of the variable other than reading a listed field (`request.keys()`,
/// `request['auth']`, `request.other`) read the variable's slot: a host that projects must fill
/// that slot too when the expression uses it whole (``CompiledExpression/usesWhole(slot:)``).
/// At most 8 projections of at most 7 fields each.
package struct Projection: Sendable, Hashable {
    /// The variable (`request`) or an earlier projection's field (`request.resource`).
    package var variable: String
    /// The fields supplied separately, in the order of their presence bits.
    package var fields: [String]

    package init(variable: String, fields: [String]) {
        self.variable = variable
        self.fields = fields
    }
}

/// Where a projected field lives, as the compiler resolves `variable.field`.
struct ProjectedField: Sendable {
    /// The slot whose `.int` bits say whether the variable is projected and the field present.
    let presence: Int
    /// The bit saying the variable is projected.
    let projected: Int64
    /// The bit saying the field is present.
    let mask: Int64
    /// The slot holding the field's value.
    let slot: Int
}

/// A projected variable's bits and fields, keyed by the slot of the variable.
struct ProjectionSlots: Sendable {
    let name: String
    /// The variable's group of presence bits: bit 7 of the group says it is projected, bits 0–6
    /// which fields are present.
    let group: Int
    let fields: [String: ProjectedField]

    static let maxProjections = 8
    static let maxFields = 7
}
