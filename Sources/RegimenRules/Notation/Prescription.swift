/// How hard a set is meant to be: reps in reserve or rating of perceived exertion.
package struct Effort: Sendable, Hashable, CustomStringConvertible {
    package enum Scale: String, Sendable, Hashable {
        /// Reps in reserve, 0 (failure) to 10.
        case rir = "RIR"
        /// Rating of perceived exertion, 1 to 10.
        case rpe = "RPE"

        /// The values the scale is defined over.
        var bounds: ClosedRange<Double> { self == .rir ? 0...10 : 1...10 }
    }

    package let scale: Scale
    package let target: NumberRange

    init(_ scale: Scale, _ target: NumberRange) {
        self.scale = scale
        self.target = target
    }

    package var description: String { "@\(scale.rawValue) \(target)" }
}

/// A set-and-rep prescription as coaches write it: `3x8-12 @RIR 1-3`, `3×8–12 @RIR2`,
/// `4x5 80%`, `5x5 60kg`, `1x5+` (as many reps as possible, at least 5), `3x10 @8` (RPE 8),
/// `3x8-12 @RPE 7-8 rest 90s`.
///
/// Grammar: `SETS x REPS[+]`, then in any order at most one each of an effort (`@RIR r`,
/// `@RPE r`, `@r` for RPE), a load (`kg`, `lb` or `%` of a one-rep max) and a rest (`rest 90s`).
package struct Prescription: Sendable, Hashable, CustomStringConvertible {
    package let sets: NumberRange
    package let reps: NumberRange
    /// `+` after the reps: as many as possible, at least the written number.
    let asManyAsPossible: Bool
    package let effort: Effort?
    /// Mass, or a percentage of a one-rep max.
    package let load: Quantity?
    /// Rest between sets (a time).
    let rest: Quantity?

    package init(sets: NumberRange, reps: NumberRange, asManyAsPossible: Bool = false, effort: Effort? = nil, load: Quantity? = nil, rest: Quantity? = nil) {
        self.sets = sets
        self.reps = reps
        self.asManyAsPossible = asManyAsPossible
        self.effort = effort
        self.load = load
        self.rest = rest
    }

    /// Parses the notation.
    /// - Throws: ``NotationError`` at the offending character.
    package init(parsing text: String) throws(NotationError) {
        var scanner = NotationScanner(text)
        scanner.skipSpaces()
        let setsStart = scanner.offset
        let sets = try NumberRange.parse(&scanner, what: "a number of sets")
        try Self.checkCount(sets, what: "sets", at: setsStart)
        scanner.skipSpaces()
        guard scanner.take("x") || scanner.take("X") || scanner.take("\u{00D7}") else {
            throw NotationError("expected 'x' between sets and reps, found \(scanner.describeNext())", at: scanner.offset)
        }
        scanner.skipSpaces()
        let repsStart = scanner.offset
        let reps = try NumberRange.parse(&scanner, what: "a number of reps")
        try Self.checkCount(reps, what: "reps", at: repsStart)
        let amrap = scanner.take("+")
        if amrap, reps.lower != reps.upper {
            throw NotationError("'+' (as many reps as possible) follows a single rep count, not a range", at: scanner.offset - 1)
        }
        var effort: Effort?
        var load: Quantity?
        var rest: Quantity?
        while true {
            scanner.skipSpaces()
            guard !scanner.atEnd else { break }
            let partStart = scanner.offset
            if scanner.take("@") {
                guard effort == nil else { throw NotationError("the effort is given twice", at: partStart) }
                scanner.skipSpaces()
                var scale = Effort.Scale.rpe
                if scanner.take(word: "rir") {
                    scale = .rir
                } else if !scanner.take(word: "rpe"), !scanner.atSignedNumber {
                    throw NotationError("expected 'RIR', 'RPE' or a number after '@', found \(scanner.describeNext())", at: scanner.offset)
                }
                scanner.skipSpaces()
                let targetStart = scanner.offset
                let target = try NumberRange.parse(&scanner, what: "a \(scale.rawValue) value")
                guard scale.bounds.contains(target.lower), scale.bounds.contains(target.upper) else {
                    throw NotationError("\(scale.rawValue) must be between \(NumberRange.format(scale.bounds.lowerBound)) and \(NumberRange.format(scale.bounds.upperBound))", at: targetStart)
                }
                effort = Effort(scale, target)
            } else if scanner.take(word: "rest") {
                guard rest == nil else { throw NotationError("the rest is given twice", at: partStart) }
                scanner.skipSpaces()
                let restStart = scanner.offset
                let quantity = try Quantity.parse(&scanner)
                guard quantity.dimension == .time else {
                    throw NotationError("rest must be a time (s, min), not '\(quantity.unit.rawValue)'", at: restStart)
                }
                rest = quantity
            } else if scanner.atSignedNumber {
                guard load == nil else { throw NotationError("the load is given twice", at: partStart) }
                let quantity = try Quantity.parse(&scanner)
                guard quantity.dimension != .time else {
                    throw NotationError("a load is a mass or a percentage; write a rest as 'rest \(quantity)'", at: partStart)
                }
                load = quantity
            } else {
                throw NotationError("unexpected \(scanner.describeNext()); expected '@RIR', '@RPE', a load or 'rest'", at: partStart)
            }
        }
        self.init(sets: sets, reps: reps, asManyAsPossible: amrap, effort: effort, load: load, rest: rest)
    }

    private static func checkCount(_ range: NumberRange, what: String, at offset: Int) throws(NotationError) {
        guard range.isIntegral, range.lower >= 1 else {
            throw NotationError("\(what) must be whole numbers of at least 1", at: offset)
        }
    }

    /// `3x8-12 @RIR 1-3 80% rest 90s`: the canonical form, which parses back to the same value.
    package var description: String {
        var text = "\(sets)x\(reps)\(asManyAsPossible ? "+" : "")"
        if let effort { text += " \(effort)" }
        if let load { text += " \(load)" }
        if let rest { text += " rest \(rest)" }
        return text
    }
}
