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

    /// `l / r` or `l % r` by a zero divisor, taken as +0.0 (a counterexample writes `0.0`):
    /// two ints fail ("Divide by zero"); otherwise `/` gives +Infinity, -Infinity or NaN by the
    /// dividend's sign, and `%` NaN, as Java's doubles do. Operands that are not numbers fail.
    static func byZero(_ op: String, _ l: String, _ r: String) -> Guarded {
        let quotient = "(ite (or (isnan \(l)) (and (isnum \(l)) (= (num \(l)) 0.0))) (vspecial 0) (ite (or (isposinf \(l)) (and (isnum \(l)) (> (num \(l)) 0.0))) (vspecial 1) (vspecial 2)))"
        let result = op == "/" ? quotient : "(vspecial 0)"
        return Guarded(when: "true", value: "(ite (not (numlike \(l))) verr (ite (and (is-vint \(l)) (is-vint \(r))) verr \(result)))")
    }

    /// The `math` functions of one number: they fail on any other argument.
    static let numericMath: Set<String> = ["abs", "floor", "ceil", "round"]

    /// `math.abs`, `math.floor`, `math.ceil` and `math.round` of one number (NaN and the
    /// infinities included); `nil` for every other function.
    static func math(_ method: String, _ x: String) -> Guarded? {
        let number = "(numlike \(x))"
        switch method {
        case "abs":
            return Guarded(when: number, value: "(ite (is-vint \(x)) (iop (abs (vi \(x)))) (ite (is-vflt \(x)) (vflt (absreal (vf \(x)))) (ite (isnan \(x)) \(x) (vspecial 1))))")
        case "floor":
            return Guarded(when: number, value: "(ite (is-vspecial \(x)) \(x) (vflt (to_real (to_int (num \(x))))))")
        case "ceil":
            return Guarded(when: number, value: "(ite (is-vspecial \(x)) \(x) (vflt (- (to_real (to_int (- (num \(x))))))))")
        case "round":
            // Java's Math.round: half up, toward +∞; NaN is 0 and the infinities saturate.
            let special = "(ite (isnan \(x)) (vint 0) (ite (isposinf \(x)) (vint 9223372036854775807) (vint (- 9223372036854775808))))"
            return Guarded(when: number, value: "(ite (is-vint \(x)) \(x) (ite (is-vspecial \(x)) \(special) (iop (to_int (+ (vf \(x)) 0.5)))))")
        default:
            return nil
        }
    }
}
