@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenTracking
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// The exit status comes from the error's kind, decided where the error is made, not guessed
/// from whether it carries a location.
struct ErrorKindExitTests {
    @Test("the caller's input exits 2, the rules' verdict 1")
    func statusPerKind() {
        #expect(CommandExit.status(for: .input) == CommandExit.usage)
        #expect(CommandExit.status(for: .rules) == CommandExit.failure)
    }

    @Test("a plan error keeps its kind whether or not it has a location", arguments: ErrorKind.allCases, [true, false])
    func planErrorStatusFollowsKind(kind: ErrorKind, located: Bool) {
        let location = located ? SourceLocation(file: "rules/goals.yaml", line: 3, column: 5) : nil
        let error = PlanGenerationError(message: "no", location: location, kind: kind)
        let failure = CommandFailure.reporting(error, in: CommandContext(
            standardOutput: .buffer(), standardError: .buffer(), currentDirectory: RepositoryRoot.url, executable: nil))
        #expect(failure.status == CommandExit.status(for: kind))
    }

    @Test("duplication: a missing source is the caller's, a refusal the rules'")
    func duplicationKinds() {
        #expect(DuplicationError(.notFound, "x").kind == .input)
        #expect(DuplicationError(.invalidArgument, "x").kind == .input)
        #expect(DuplicationError(.permissionDenied, "x").kind == .rules)
        #expect(DuplicationError(.failedPrecondition, "x").kind == .rules)
    }

    @Test("a training option the rules do not offer is the caller's mistake")
    func trainingOptionIsInput() {
        let error = TrainingPlanError(field: "split", value: "x", message: "not offered")
        #expect(error.kind == .input)
        #expect(error.diagnostics.map(\.message) == [error.description])
    }
}
