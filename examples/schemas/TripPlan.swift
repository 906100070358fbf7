// A nested output type: the schema of TripPlan holds DayPlan and Activity
// under `$defs` and refers to them with `$ref`. TripPlan.json is the
// GenerationSchema JSON of these types; `ctxkit report` prices it.
//
//     schema-cost examples/schemas/TripPlan.swift
import FoundationModels

@Generable(description: "A day-by-day plan for a short trip")
struct TripPlan {
    @Guide(description: "Where the trip goes, as city and country")
    var destination: String

    @Guide(description: "One entry per day, in order", .maximumCount(5))
    var days: [DayPlan]
}

@Generable(description: "The plan for one day")
struct DayPlan {
    @Guide(description: "A short title for the day")
    var title: String

    @Guide(description: "What to do, in the order it happens", .maximumCount(4))
    var activities: [Activity]
}

@Generable(description: "One thing to do")
struct Activity {
    @Guide(description: "What it is, in a few words")
    var name: String

    @Guide(description: "How long it takes, in minutes", .range(15...240))
    var minutes: Int

    @Guide(description: "Whether it must be booked ahead")
    var needsBooking: Bool
}
