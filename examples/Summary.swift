// The Summary type of the field notes: what a typed summary costs in
// Apple's on-device model's 4,096-token window (measured: 119 tokens).
//
//     schema-cost examples/Summary.swift
import FoundationModels

@Generable(description: "A short summary of a piece of text")
struct Summary {
    @Guide(description: "A headline of at most eight words")
    var headline: String

    @Guide(description: "The main points, one short sentence each", .count(3))
    var points: [String]
}
