#if canImport(FoundationModels)
    import Foundation
    import FoundationModels
    import ContextKit

    /// Apple's on-device model (iOS, iPadOS, macOS and visionOS 26 and later),
    /// kept thin: it turns the framework's values into the plain ones of
    /// `FoundationModelsMapping`, where every decision is made and tested, and back.
    ///
    /// Never compiled here (Linux has no FoundationModels). Each use of the
    /// framework says which SDK it was checked against: Apple's documentation
    /// and the SDK's `.swiftinterface` as quoted in public repositories, for the
    /// iOS 26.0, 26.4 and 27.0 SDKs. The Summariser README says what only a
    /// device can prove.
    ///
    /// Unavailable on tvOS and watchOS. Every member uses `SystemLanguageModel`,
    /// which the SDK interface marks `@available(tvOS, unavailable)` and
    /// `@available(watchOS, unavailable)` and Apple documents for iOS, iPadOS,
    /// Mac Catalyst, macOS and visionOS only, also in the 27.0 SDK, where
    /// `LanguageModelSession` and `GenerationSchema` gain watchOS 27. So the
    /// framework imports on watchOS 27 but the system model is not there; the
    /// attributes below say so the way the SDK does, rather than gating the file
    /// away, so an app that names this type on those platforms is told why.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct FoundationModelsBackend: LanguageModelBackend {
        /// The tools every session offers the model (none by default). They are
        /// part of every request, so they are counted with it.
        public let tools: [any FoundationModels.Tool]

        /// The system model (`SystemLanguageModel.default`), its sessions offering `tools`.
        public init(tools: [any FoundationModels.Tool] = []) {
            self.tools = tools
        }

        /// `apple-on-device`, as the built-in profile is named.
        public var name: String { "apple-on-device" }

        /// The system model's availability, its reasons kept apart: device not
        /// eligible (hide the feature), Apple Intelligence off (Settings), model
        /// not ready (try later).
        public func availability() async -> BackendAvailability {
            // Checked: iOS 26.0 SDK, `SystemLanguageModel.default` and its
            // `availability` (unchanged in the 27.0 SDK).
            Self.status(SystemLanguageModel.default.availability).availability
        }

        /// Apple's availability as `FoundationModelsMapping.Status`.
        static func status(_ availability: SystemLanguageModel.Availability) -> FoundationModelsMapping.Status {
            // Checked: iOS 26.0 SDK, `@frozen enum Availability { case available,
            // unavailable(UnavailableReason) }`; `UnavailableReason` has
            // `deviceNotEligible`, `appleIntelligenceNotEnabled`, `modelNotReady` and
            // is not frozen (the same three in the 27.0 SDK).
            switch availability {
            case .available: return .available
            case .unavailable(.deviceNotEligible): return .deviceNotEligible
            case .unavailable(.appleIntelligenceNotEnabled): return .appleIntelligenceNotEnabled
            case .unavailable(.modelNotReady): return .modelNotReady
            case .unavailable: return .unknownReason
            }
        }

        /// The model's window from the OS (`contextSize` is back-deployed from
        /// the 26.4 SDKs, whose compiler is Swift 6.3); 4,096, the documented
        /// size, when built with an older SDK.
        public func contextSize() async -> Int? {
            #if compiler(>=6.3)
                // Checked: iOS 26.4 SDK, `@backDeployed(before: iOS 26.4, macOS 26.4,
                // visionOS 26.4) final var contextSize: Int` (4096 below 27.0).
                return SystemLanguageModel.default.contextSize
            #else
                return 4096
            #endif
        }

        /// The on-device tokenizer's exact count of `text` sent as a prompt, on
        /// iOS, macOS and visionOS 26.4 and later; nil before (the engine then
        /// relies on the `apple-on-device` profile's proxy estimate, ±15%).
        public func tokenCount(for text: String) async -> Int? {
            await count([.prompt(text)])
        }

        /// The OS's count of the whole request as it is sent, on iOS, macOS and
        /// visionOS 26.4 and later: the instructions, the prompt, the schema and
        /// the session's tools (`FoundationModelsMapping.requestPieces`); nil
        /// before 26.4, or when the OS cannot count one of them.
        public func promptTokens(instructions: String, prompt: String, schema: OutputSchema?) async -> Int? {
            await count(FoundationModelsMapping.requestPieces(instructions: instructions, prompt: prompt, schema: schema, hasTools: !tools.isEmpty))
        }

        /// The sum of the OS's counts of `pieces`, one `tokenCount(for:)` each.
        private func count(_ pieces: [FoundationModelsMapping.RequestPiece]) async -> Int? {
            #if compiler(>=6.3)
                // Checked: iOS 26.4 SDK, `SystemLanguageModel.tokenCount(for:)`,
                // `@available(iOS 26.4, macOS 26.4, visionOS 26.4, *)`, every overload
                // `nonisolated(nonsending) final func … async throws -> Int`.
                if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
                    let model = SystemLanguageModel.default
                    var total = 0
                    do {
                        for piece in pieces {
                            switch piece {
                            case .instructions(let text):
                                // Checked: iOS 26.4 SDK, `tokenCount(for instructions: Instructions)`.
                                total += try await model.tokenCount(for: Instructions(text))
                            case .prompt(let text):
                                // Checked: iOS 26.4 SDK, `tokenCount(for prompt: some PromptRepresentable)`;
                                // `Prompt` is one, and the request sends the same `Prompt`.
                                total += try await model.tokenCount(for: Prompt(text))
                            case .schema(let schema):
                                // Checked: iOS 26.4 SDK, `tokenCount(for schema: GenerationSchema)`.
                                total += try await model.tokenCount(for: Self.generationSchema(schema))
                            case .tools:
                                // Checked: iOS 26.4 SDK, `tokenCount(for tools: [any Tool])`.
                                total += try await model.tokenCount(for: tools)
                            }
                        }
                    } catch {
                        return nil
                    }
                    return total
                }
            #endif
            return nil
        }

        /// `schema` as Apple's `GenerationSchema`, decoded from its content.
        ///
        /// - Throws: `GenerationError.unsupportedGuide` when the decoder refuses it.
        static func generationSchema(_ schema: OutputSchema) throws(GenerationError) -> GenerationSchema {
            // Checked: iOS 26.0 SDK, `struct GenerationSchema` conforms to `Decodable`.
            do {
                let json = FoundationModelsMapping.generationSchemaJSON(schema)
                return try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
            } catch {
                throw .unsupportedGuide("Apple's GenerationSchema does not take the schema \(schema.name): \(error)")
            }
        }

        /// A fresh `LanguageModelSession` with `instructions` and `tools`, for one request.
        public func makeSession(instructions: String) -> any LanguageModelSession {
            // Checked: iOS 26.0 SDK, `convenience init(model: SystemLanguageModel = .default,
            // tools: [any Tool] = [], instructions: String? = nil)`.
            Session(box: Box(FoundationModels.LanguageModelSession(tools: tools, instructions: instructions)))
        }

        /// Apple's session is used from one task at a time (one request per session).
        final class Box: @unchecked Sendable {
            let session: FoundationModels.LanguageModelSession
            init(_ session: FoundationModels.LanguageModelSession) { self.session = session }
        }

        struct Session: LanguageModelSession {
            let box: Box

            func prewarm() async {
                // Checked: iOS 26.0 SDK, `final func prewarm(promptPrefix: Prompt? = nil)`.
                box.session.prewarm()
            }

            func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
                let box = self.box
                return AsyncThrowingStream { continuation in
                    let task = Task {
                        do {
                            let options = Self.options(request.options)
                            let prompt = Prompt(request.prompt)
                            var last = ""
                            if let schema = request.schema {
                                // Checked: iOS 26.0 SDK, `streamResponse(to prompt: Prompt, schema: GenerationSchema,
                                // includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions())
                                // -> sending ResponseStream<GeneratedContent>` (not deprecated in the 27.0 SDK);
                                // a snapshot's `rawContent` is `GeneratedContent`, whose `jsonString` is the JSON so far.
                                let generationSchema = try FoundationModelsBackend.generationSchema(schema)
                                for try await snapshot in box.session.streamResponse(
                                    to: prompt, schema: generationSchema,
                                    includeSchemaInPrompt: true, options: options)
                                {
                                    last = snapshot.rawContent.jsonString
                                    continuation.yield(ResponseSnapshot(content: last))
                                }
                            } else {
                                // Checked: iOS 26.0 SDK, `streamResponse(to prompt: Prompt, options: GenerationOptions)
                                // -> sending ResponseStream<String>`; snapshots are cumulative.
                                for try await snapshot in box.session.streamResponse(to: prompt, options: options) {
                                    last = snapshot.content
                                    continuation.yield(ResponseSnapshot(content: last))
                                }
                            }
                            continuation.yield(ResponseSnapshot(content: last, isComplete: true))
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: await Self.translate(error))
                        }
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }

            /// The engine's sampling options as Apple's.
            static func options(_ o: SamplingOptions) -> GenerationOptions {
                // Checked: iOS 26.0 SDK, `GenerationOptions.init(sampling:temperature:maximumResponseTokens:)`
                // and `SamplingMode.greedy`, `.random(top:seed:)`, `.random(probabilityThreshold:seed:)`.
                // The 27.0 SDK keeps this initialiser and adds `init(samplingMode:…)`, back-deployed
                // only when built with the 27.0 SDK, so the 26 one builds with both.
                var sampling: GenerationOptions.SamplingMode? = nil
                switch o.mode {
                case .greedy?: sampling = .greedy
                case .topK(let k)?: sampling = .random(top: k, seed: o.seed)
                case .probabilityThreshold(let p)?: sampling = .random(probabilityThreshold: p, seed: o.seed)
                case nil: break
                }
                return GenerationOptions(sampling: sampling, temperature: o.temperature, maximumResponseTokens: o.maximumResponseTokens)
            }

            /// Whatever the stream threw, as the engine's `GenerationError`.
            static func translate(_ error: any Error) async -> GenerationError {
                if error is CancellationError { return .cancelled }
                if let error = error as? GenerationError { return error }
                return await failure(error).generationError
            }

            /// A framework error as `FoundationModelsMapping.Failure`: the 27.0
            /// SDK's types first (what an app built with Xcode 27 is thrown), then
            /// the 26.0 SDK's `GenerationError` (what one built with Xcode 26 is).
            static func failure(_ error: any Error) async -> FoundationModelsMapping.Failure {
                #if compiler(>=6.4)
                    // The 27.0 SDK's compiler is Swift 6.4.
                    if #available(iOS 27.0, macOS 27.0, visionOS 27.0, *) {
                        if let failure = await failure27(error) { return failure }
                    }
                #endif
                guard let error = error as? FoundationModels.LanguageModelSession.GenerationError else {
                    return .other("\(error)")
                }
                // Checked: iOS 26.0 SDK, `LanguageModelSession.GenerationError` (deprecated in
                // the 27.0 SDK): nine cases, each with a `Context` whose `debugDescription` says more.
                switch error {
                case .exceededContextWindowSize(let context):
                    return .contextSizeExceeded(tokenCount: nil, contextSize: nil, detail: context.debugDescription)
                case .rateLimited(let context):
                    return .rateLimited(context.debugDescription)
                case .concurrentRequests(let context):
                    return .concurrentRequests(context.debugDescription)
                case .guardrailViolation(let context):
                    return .guardrailViolation(context.debugDescription)
                case .refusal(let refusal, let context):
                    // Checked: iOS 26.0 SDK, `Refusal.explanation: Response<String> { get async throws }`.
                    return .refusal(explanation: (try? await refusal.explanation.content) ?? context.debugDescription)
                case .decodingFailure(let context):
                    return .decodingFailure(context.debugDescription)
                case .unsupportedGuide(let context):
                    return .unsupportedGuide(context.debugDescription)
                case .unsupportedLanguageOrLocale(let context):
                    return .unsupportedLanguageOrLocale(context.debugDescription)
                case .assetsUnavailable(let context):
                    return .assetsUnavailable(context.debugDescription)
                @unknown default:
                    return .other(error.localizedDescription)
                }
            }

            #if compiler(>=6.4)
                /// The 27.0 SDK's errors, or nil for any other.
                @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
                static func failure27(_ error: any Error) async -> FoundationModelsMapping.Failure? {
                    // Checked: iOS 27.0 SDK, `LanguageModelSession.Error.concurrentRequests`.
                    if let error = error as? FoundationModels.LanguageModelSession.Error, case .concurrentRequests = error {
                        return .concurrentRequests(error.localizedDescription)
                    }
                    // Checked: iOS 27.0 SDK, `SystemLanguageModel.Error.assetsUnavailable(AssetsUnavailable)`.
                    if let error = error as? SystemLanguageModel.Error, case .assetsUnavailable(let info) = error {
                        return .assetsUnavailable(info.debugDescription)
                    }
                    // Checked: iOS 27.0 SDK, `enum LanguageModelError`; every payload has a `debugDescription`.
                    guard let error = error as? LanguageModelError else { return nil }
                    switch error {
                    case .contextSizeExceeded(let info):
                        // Checked: iOS 27.0 SDK, `ContextSizeExceeded.tokenCount` and `.contextSize` (both `Int`).
                        return .contextSizeExceeded(tokenCount: info.tokenCount, contextSize: info.contextSize, detail: info.debugDescription)
                    case .rateLimited(let info):
                        return .rateLimited(info.debugDescription)
                    case .guardrailViolation(let info):
                        return .guardrailViolation(info.debugDescription)
                    case .refusal(let refusal):
                        // Checked: iOS 27.0 SDK, `LanguageModelError.Refusal.explanation: Response<String> { get async throws }`.
                        return .refusal(explanation: (try? await refusal.explanation.content) ?? refusal.debugDescription)
                    case .unsupportedGenerationGuide(let info):
                        return .unsupportedGuide(info.debugDescription)
                    case .unsupportedLanguageOrLocale(let info):
                        return .unsupportedLanguageOrLocale(info.debugDescription)
                    default:
                        return .other(error.localizedDescription)
                    }
                }
            #endif
        }
    }
#endif
