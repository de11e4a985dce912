/// What the evaluator computes for constructs the encoding keeps abstract, in the common case
/// and with the solver's reals standing in for doubles. Only the concrete attempt at a
/// counterexample uses these (see ``SymbolicEncoder/abstractFunction(_:at:key:inputs:approximation:)``):
/// they steer the solver to the request the evaluator would decide the same way, and the replay
/// through the evaluator has the last word, so an approximation that is off (a double's
/// rounding, an integer beyond 2^53) costs a counterexample, never a proof.
enum EvaluatorApproximation {
    /// `value` is the evaluator's result whenever `when` holds; `nonlinear` when it multiplies
    /// or divides two unknowns (the solver then searches small numbers first).
    struct Guarded {
        let when: String
        let value: String
        var nonlinear = false
    }

    /// `l op r` for an int and a float (the int widened to a double), for `+`, `-` and `*`.
    static func mixedArithmetic(_ smtOperator: String, _ l: String, _ r: String) -> Guarded {
        Guarded(when: "(and (isnum \(l)) (isnum \(r)))", value: "(vflt (\(smtOperator) (num \(l)) (num \(r))))", nonlinear: smtOperator == "*")
    }

    /// `l / r` by a divisor other than zero: Java's truncating division for two ints, the
    /// quotient of the reals otherwise.
    static func quotient(_ l: String, _ r: String) -> Guarded {
        let truncated = "(ite (= (>= (vi \(l)) 0) (> (vi \(r)) 0)) (div (abs (vi \(l))) (abs (vi \(r)))) (- (div (abs (vi \(l))) (abs (vi \(r))))))"
        return Guarded(when: "(and (isnum \(l)) (isnum \(r)) (not (= (num \(r)) 0.0)))",
                       value: "(ite (and (is-vint \(l)) (is-vint \(r))) (iop \(truncated)) (vflt (/ (num \(l)) (num \(r)))))", nonlinear: true)
    }

    /// `math.abs`, `math.floor`, `math.ceil` and `math.round` of one finite number; `nil` for
    /// every other function.
    static func math(_ method: String, _ x: String) -> Guarded? {
        let number = "(isnum \(x))"
        switch method {
        case "abs":
            return Guarded(when: number, value: "(ite (is-vint \(x)) (iop (abs (vi \(x)))) (vflt (absreal (vf \(x)))))")
        case "floor":
            return Guarded(when: number, value: "(vflt (to_real (to_int (num \(x)))))")
        case "ceil":
            return Guarded(when: number, value: "(vflt (- (to_real (to_int (- (num \(x)))))))")
        case "round":
            // Java's Math.round: half up, toward +∞.
            return Guarded(when: number, value: "(ite (is-vint \(x)) \(x) (iop (to_int (+ (vf \(x)) 0.5))))")
        default:
            return nil
        }
    }
}
