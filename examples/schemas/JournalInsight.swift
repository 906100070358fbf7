// A typed insight from one journal entry: a mood from a fixed list (an
// `enum` in the schema) and at most four tags. JournalInsight.json is the
// GenerationSchema JSON of this type; `ctxkit report` prices it.
//
//     schema-cost examples/schemas/JournalInsight.swift
import FoundationModels

@Generable(description: "What one journal entry says about the writer's day")
struct JournalInsight {
    @Guide(description: "The writer's overall mood", .anyOf(["joyful", "content", "calm", "hopeful", "anxious", "sad", "angry", "tired"]))
    var mood: String

    @Guide(description: "One sentence on what mattered most in the entry")
    var insight: String

    @Guide(description: "Short lowercase topic tags", .maximumCount(4))
    var tags: [String]
}
