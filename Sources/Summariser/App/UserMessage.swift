/// What an app shows a person when a summary cannot be made: a title they
/// can read at a glance, a sentence saying what to do, and the one thing the
/// app should do about it (hide the feature, offer Settings, offer a retry…).
///
/// There is one for every `BackendAvailability.Reason`, every
/// `GenerationError` and every `SummariserError`. The Apple reasons stay
/// apart because each needs a different screen: a device that cannot run
/// the model hides the feature, Apple Intelligence turned off points to
/// Settings, a model still downloading or busy asks for patience. Guardrail and
/// refusal copy is gentle: the safety rules scan for what people write about
/// on hard days, so the message never suggests the person wrote something wrong.
public struct UserMessage: Equatable, Sendable, CustomStringConvertible {
    /// What the app should offer next to the message.
    public enum Action: String, Equatable, Sendable, CaseIterable {
        /// Show nothing at all: the feature cannot work on this device.
        case hideFeature
        /// Offer to open Settings (Apple Intelligence is off).
        case openSettings
        /// Nothing to do now; the same request will work later.
        case tryLater
        /// Offer a retry: the failure was an accident.
        case tryAgain
        /// The text is too long for the model: offer to summarise a shorter part.
        case shortenText
        /// The app's or server's set-up needs fixing (address, key, model).
        case checkSetup
        /// Nothing to offer: show the text itself instead.
        case showText
    }

    /// A headline, a few words (`Apple Intelligence is off`).
    public var title: String
    /// One sentence saying what happened and what to do.
    public var detail: String
    /// What the app should offer.
    public var action: Action

    /// A message from its parts.
    public init(title: String, detail: String, action: Action) {
        self.title = title
        self.detail = detail
        self.action = action
    }

    /// `title: detail`.
    public var description: String { "\(title): \(detail)" }

    /// The message for a backend that cannot answer.
    public init(_ reason: BackendAvailability.Reason) {
        switch reason {
        case .deviceNotEligible:
            self.init(
                title: "Not available on this device",
                detail: "This device cannot run the on-device model, so summaries are not offered here.", action: .hideFeature)
        case .notEnabled:
            self.init(
                title: "Apple Intelligence is off",
                detail: "Turn on Apple Intelligence in Settings to get summaries, then come back.", action: .openSettings)
        case .modelNotReady:
            self.init(
                title: "Getting the model ready",
                detail: "The on-device model is still being downloaded or set up; summaries will work in a little while.", action: .tryLater)
        case .busy:
            self.init(
                title: "The model is busy",
                detail: "The on-device model is busy with other requests right now; try again in a moment.", action: .tryLater)
        case let .unreachable(url, _):
            self.init(
                title: "Cannot reach the model",
                detail: "Nothing answers at \(url); check that the server is running and the address is right.", action: .checkSetup)
        case let .modelNotLoaded(model, _):
            self.init(
                title: "The model is still loading",
                detail: "The server is up but \(model.map { "'\($0)'" } ?? "its model") is not loaded yet; try again in a moment.", action: .tryLater)
        case let .unauthorised(url):
            self.init(
                title: "The server refused the key",
                detail: "\(url) did not accept the credentials; check the API key in the app's settings.", action: .checkSetup)
        }
    }

    /// The message for a request that failed.
    public init(_ error: GenerationError) {
        switch error {
        case .unavailable(let reason):
            self.init(reason)
        case .contextOverflow:
            self.init(
                title: "Too long to summarise",
                detail: "This text does not fit what the model can read at once; try a shorter part of it.", action: .shortenText)
        case .guardrailViolation:
            self.init(
                title: "No summary for this one",
                detail: "The model's safety rules are cautious with some subjects and held this summary back; the full text is here instead.",
                action: .showText)
        case .refusal:
            self.init(
                title: "No summary for this one",
                detail: "The model chose not to summarise this text; the full text is here instead.", action: .showText)
        case .decodingFailure:
            self.init(
                title: "The summary came out garbled",
                detail: "The model's answer could not be read as a summary; trying again usually works.", action: .tryAgain)
        case .unsupportedGuide:
            self.init(
                title: "This model cannot write the summary",
                detail: "The model does not support the summary's format; choose another model.", action: .checkSetup)
        case .unsupportedLanguage:
            self.init(
                title: "Language not supported yet",
                detail: "The model does not summarise this language or region yet; the full text is here instead.", action: .showText)
        case .cancelled:
            self.init(
                title: "Summary stopped",
                detail: "The summary was stopped before it finished; start it again when you are ready.", action: .tryAgain)
        case .transport:
            self.init(
                title: "Could not get a summary",
                detail: "The connection to the model failed before the answer was complete; try again.", action: .tryAgain)
        }
    }

    /// The message for a run that stopped without a summary.
    public init(_ error: SummariserError) {
        switch error {
        case .unavailable(let reason):
            self.init(reason)
        case .generation(let failure, _):
            self.init(failure)
        case .planning:
            self.init(
                title: "Cannot prepare this text",
                detail: "The model's window leaves no room for the text with these settings; choose a model with a larger window.", action: .checkSetup)
        case .overflowPersists, .reduceDoesNotConverge:
            self.init(
                title: "Too long to summarise",
                detail: "This text is more than the model can summarise; try a shorter part of it.", action: .shortenText)
        case .cancelled:
            self.init(GenerationError.cancelled)
        }
    }
}
