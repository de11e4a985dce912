import Testing
@testable import RegimenCoaching

@Suite struct CalendarDayTests {
    @Test func countsDaysAcrossMonthsAndLeapYears() throws {
        let leap = try #require(CalendarDay("2024-03-01")).ordinal - (try #require(CalendarDay("2024-02-28")).ordinal)
        let common = try #require(CalendarDay("2023-03-01")).ordinal - (try #require(CalendarDay("2023-02-28")).ordinal)
        #expect(leap == 2)
        #expect(common == 1)
        #expect(try #require(CalendarDay("1970-01-01")).ordinal == 0)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-04-31", "2024-1-01", "2024-03-01T00:00:00Z", "yesterday", ""])
    func rejectsWhatIsNotAPlainValidDate(_ text: String) {
        #expect(CalendarDay(text) == nil)
    }
}
