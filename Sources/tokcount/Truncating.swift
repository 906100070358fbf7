import ContextKit
import ContextKitJSON
import Foundation
import Render
import ToolSupport

extension ExitCode {
    /// `--truncate` cut the input (0 when it already fitted).
    static let truncated = ExitCode(rawValue: 4)
}

/// `--truncate N`: the longest prefix of the input that is at most N tokens.
enum Truncating {
    static func run(_ s: TokcountCommand.Settings, limit: Int, at boundary: TruncationBoundary) throws -> ExitCode {
        let path: String, text: String
        do { (path, text) = try WholeInput.text(s, mode: "--truncate") } catch let e as InputError {
            Output.err("tokcount: \(e.path): \(e.reason)\n")
            return .inputFailed
        }
        let cut: Truncation
        do { cut = try s.tokenizer.truncate(text, to: limit, at: boundary, allowedSpecial: s.special) } catch {
            Output.err("tokcount: \(path): \(error)\n")
            return .inputFailed
        }
        let exit: ExitCode = cut.wasCut ? .truncated : .ok
        if s.json {
            Output.out(
                OrderedJSON.object([
                    JSONMember("path", .string(path)),
                    JSONMember("limit", .int(limit)),
                    JSONMember("cutAt", .string(boundary.rawValue)),
                    JSONMember("cut", .bool(cut.wasCut)),
                    JSONMember("tokens", .int(cut.tokens)),
                    JSONMember("bytes", .int(cut.bytes)),
                    JSONMember("originalBytes", .int(text.utf8.count)),
                    JSONMember("text", .string(cut.text)),
                    JSONMember("exitCode", .int(Int(exit.rawValue)))
                ]).rendered() + "\n")
        } else {
            Output.out(cut.text)
            if cut.wasCut {
                Output.err(
                    "tokcount: \(path): cut to \(NumberFormat.grouped(cut.tokens)) tokens (limit \(NumberFormat.grouped(limit)), \(s.tokenizerName)) at a \(boundary.rawValue) boundary: kept \(NumberFormat.grouped(cut.bytes)) of \(NumberFormat.grouped(text.utf8.count)) bytes\n"
                )
            }
        }
        return exit
    }
}

/// `--chat FILE --truncate N`: the oldest non-system messages dropped (the last one trimmed) until it fits.
enum ChatTruncating {
    static func run(
        _ outcomes: [ChatCounting.Outcome], counter: ConversationCounter, limit: Int, at boundary: TruncationBoundary,
        settings s: TokcountCommand.Settings
    ) -> ExitCode {
        guard outcomes.count == 1 else {
            Output.err("tokcount: --chat with --truncate reads one conversation; \(outcomes.count) were given\n")
            return .usage
        }
        let o = outcomes[0]
        guard let conversation = o.conversation, o.error == nil else { return .inputFailed }
        let cut: ConversationTruncation
        do { cut = try counter.truncate(conversation, to: limit, at: boundary) } catch {
            Output.err("tokcount: \(InputFile.display(o.path)): \(error)\n")
            return .inputFailed
        }
        let name = InputFile.display(o.path)
        for i in cut.dropped {
            Output.err("tokcount: \(name): dropped messages[\(i)] (\(conversation.messages[i].role.rawValue))\n")
        }
        if let t = cut.trimmed {
            Output.err(
                "tokcount: \(name): trimmed messages[\(t.index)] (\(conversation.messages[t.index].role.rawValue)) from \(NumberFormat.grouped(t.from)) to \(NumberFormat.grouped(t.to)) content tokens\n"
            )
        }
        Output.err(
            "tokcount: \(name): \(NumberFormat.grouped(cut.count.total)) prompt tokens (limit \(NumberFormat.grouped(limit)))"
                + (cut.fits ? "\n" : "; the system messages, tools and overhead alone exceed the limit\n"))
        Output.out(cut.conversation.json.rendered() + "\n")
        if !cut.fits { return .inputFailed }
        return cut.wasCut ? .truncated : .ok
    }
}

/// `--offsets`: each token's id with its byte and character span.
enum OffsetListing {
    static func run(_ s: TokcountCommand.Settings) throws -> ExitCode {
        let path: String, text: String
        do { (path, text) = try WholeInput.text(s, mode: "--offsets") } catch let e as InputError {
            Output.err("tokcount: \(e.path): \(e.reason)\n")
            return .inputFailed
        }
        let spans: [TokenSpan]
        do { spans = try s.tokenizer.spans(text, allowedSpecial: s.special) } catch {
            Output.err("tokcount: \(path): \(error)\n")
            return .inputFailed
        }
        let bytes = Array(text.utf8)
        if s.json {
            Output.out(
                OrderedJSON.object([
                    JSONMember("path", .string(path)),
                    JSONMember("tokenizer", .string(s.tokenizerName)),
                    JSONMember(
                        "tokens",
                        .array(
                            spans.map { span in
                                .object([
                                    JSONMember("id", .int(span.id)),
                                    JSONMember("bytes", .array([.int(span.bytes.lowerBound), .int(span.bytes.upperBound)])),
                                    JSONMember("characters", .array([.int(span.characters.lowerBound), .int(span.characters.upperBound)]))
                                ])
                            }))
                ]).rendered() + "\n")
        } else {
            var out = "id\tbytes\tcharacters\ttext\n"
            bytes.withUnsafeBufferPointer { buffer in
                for span in spans {
                    out +=
                        "\(span.id)\t\(span.bytes.lowerBound)..<\(span.bytes.upperBound)\t\(span.characters.lowerBound)..<\(span.characters.upperBound)\t"
                        + TokenListing.quoted(UnsafeBufferPointer(rebasing: buffer[span.bytes])) + "\n"
                }
            }
            Output.out(out)
        }
        return .ok
    }
}
