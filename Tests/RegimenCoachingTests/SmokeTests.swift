import RegimenCoaching
import Testing

@Test func smoke() throws {
    let rules = try TestRules.rules()
    let profile = try TestRules.profile("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25–34\ngoal: hypertrophy\n")
    let plan = try rules.planNutrition(profile)
    print(plan.jsonValue.jsonString(pretty: true))
}
