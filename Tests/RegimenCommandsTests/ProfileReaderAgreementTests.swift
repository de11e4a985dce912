import Foundation
import RegimenTestSupport
import Testing

/// Every command that reads a profile reads it the same way: the same messages for a rejected
/// profile, a missing file and a folder, and relative paths resolved against the folder the
/// command runs in.
struct ProfileReaderAgreementTests {
    static let commands: [[String]] = [["plan"], ["indexes"], ["nutrition"], ["supplements"]]

    static func stderr(_ command: [String], _ profile: String, in folder: URL) -> (Int32, String) {
        let rules = RepositoryRoot.url.path
        let run = runRegimen(command + [profile, "--rules", rules], in: folder)
        return (run.status, run.standardError)
    }

    @Test("a rejected profile: every command prints the same problems and the same tally", arguments: commands)
    func rejectedProfile(command: [String]) throws {
        let scratch = try ScratchFolder(["bad.yaml": "sex: robot\nschedule_days: 9\nweight_kg: 20\n", "folder/.keep": ""])
        defer { scratch.cleanUp() }
        let (status, text) = Self.stderr(command, "bad.yaml", in: scratch.url)
        #expect(status == 2)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "bad.yaml:1:6: error: sex: 'robot' is not allowed; expected one of male, female")
        #expect(lines.last == "profile rejected: 3 problems")
        #expect(lines.count == 4)
    }

    @Test("a folder or a missing file is a usage error that names it", arguments: commands)
    func notAProfileFile(command: [String]) throws {
        let scratch = try ScratchFolder(["folder/.keep": ""])
        defer { scratch.cleanUp() }
        let folder = Self.stderr(command, "folder", in: scratch.url)
        #expect(folder.0 == 2)
        #expect(folder.1 == "error: 'folder' is a directory, not a profile file\n")
        let missing = Self.stderr(command, "absent.yaml", in: scratch.url)
        #expect(missing.0 == 2)
        #expect(missing.1 == "error: profile file 'absent.yaml' does not exist\n")
    }

    @Test("diff reads both profiles with the same reader")
    func diffReadsProfilesTheSameWay() throws {
        let scratch = try ScratchFolder(["bad.yaml": "sex: robot\nschedule_days: 9\nweight_kg: 20\n", "folder/.keep": ""])
        defer { scratch.cleanUp() }
        let run = runRegimen(["diff", "folder", "bad.yaml", "--rules", RepositoryRoot.url.path], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.standardError == "error: 'folder' is a directory, not a profile file\n")
    }
}
