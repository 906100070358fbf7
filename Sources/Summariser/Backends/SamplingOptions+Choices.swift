extension SamplingOptions {
    /// More than one way of choosing the next token was asked for (greedy,
    /// top-k and top-p exclude each other).
    public struct ConflictingModes: Error, Equatable, Sendable {
        /// The modes asked for, in the order greedy, top-k, top-p.
        public var modes: [Mode]
    }

    /// Options from the separate choices a user makes (a command line's
    /// `--greedy`, `--top-k`, `--top-p`, `--temperature`, `--seed`, or a
    /// settings screen's): at most one of `greedy`, `topK` and `topP` sets
    /// the mode (`topP` is `probabilityThreshold`); the rest pass through, and
    /// what is not given stays the backend's default. The answer's token limit
    /// is left to the engine (`SummaryEngine.Configuration.responseReserve`).
    ///
    /// - Throws: `ConflictingModes` when more than one mode is chosen.
    public init(greedy: Bool, topK: Int?, topP: Double?, temperature: Double?, seed: UInt64?) throws(ConflictingModes) {
        let modes: [Mode] = (greedy ? [.greedy] : []) + (topK.map { [.topK($0)] } ?? []) + (topP.map { [.probabilityThreshold($0)] } ?? [])
        guard modes.count <= 1 else { throw ConflictingModes(modes: modes) }
        self.init(mode: modes.first, temperature: temperature, seed: seed)
    }
}
