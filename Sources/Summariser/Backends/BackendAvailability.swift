/// Whether a backend can answer now, and if not, why — in terms that tell an
/// app what to do: hide the feature, send the user to Settings, try later,
/// start the server, fix the key.
public enum BackendAvailability: Equatable, Sendable, CustomStringConvertible {
    /// Requests can be sent now.
    case available
    /// Requests would fail now; the reason says what to do.
    case unavailable(Reason)

    /// Why a backend cannot answer, one case per thing the user can do about it.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// Apple: this device cannot run the on-device model. Hide the feature.
        case deviceNotEligible
        /// Apple: Apple Intelligence is turned off. Send the user to Settings.
        case notEnabled
        /// Apple: the model is still downloading or being prepared. Try later.
        case modelNotReady
        /// Apple: the model turned the request away for now: rate limited (an
        /// app in the background, over the system's limit) or already
        /// answering another request in the session. Try later.
        case busy(detail: String)
        /// HTTP: nothing answers at the URL.
        case unreachable(url: String, detail: String)
        /// HTTP: the server answers but the model is not loaded (still loading, or another model).
        case modelNotLoaded(model: String?, detail: String)
        /// HTTP: the server refused the credentials.
        case unauthorised(url: String)

        /// A message for the user that says what to do.
        public var description: String {
            switch self {
            case .deviceNotEligible:
                return "this device cannot run Apple's on-device model"
            case .notEnabled:
                return "Apple Intelligence is turned off; turn it on in Settings > Apple Intelligence & Siri"
            case .modelNotReady:
                return "the on-device model is not ready yet (still downloading); try again later"
            case .busy(let detail):
                return "the on-device model is busy (\(detail)); try again later"
            case let .unreachable(url, detail):
                return "cannot reach \(url): \(detail); check that the server is running and the URL is right"
            case let .modelNotLoaded(model, detail):
                let name = model.map { "the model '\($0)'" } ?? "the model"
                return "the server is up but \(name) is not loaded: \(detail); wait for it to finish loading, or name a model it serves with --model"
            case let .unauthorised(url):
                return "\(url) refused the credentials; set OPENAI_API_KEY (or --api-key) to a key the server accepts"
            }
        }
    }

    /// `available`, or `unavailable: ` and the reason's message.
    public var description: String {
        switch self {
        case .available: return "available"
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }
}
