// ContextKit's API speaks in TokenKit's tokenizers and in chat templates, so
// importing ContextKit brings both.
@_exported import TokenKit
@_exported import ChatTemplates
